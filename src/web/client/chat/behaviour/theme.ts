import { effect } from "@preact/signals";
import { applyColorScheme } from "../../ui/theme";
import { userSettings } from "../state/store";

/** The person's colour scheme, also when they change it elsewhere (the settings page, another client). */
export function followColorSchemeSetting() {
  effect(() => {
    const scheme = userSettings.value.color_scheme;
    if (typeof scheme === "number") applyColorScheme(scheme);
  });
}
