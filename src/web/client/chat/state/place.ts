import { computed, signal } from "@preact/signals";
import { FEED, hashToPlace, placeToHash, type Narrow, type Place } from "../model/narrow";
import { openList, type NarrowList } from "./messages";
import { me, names } from "./store";

/**
 * Where the person is: the narrow the URL fragment names. Moving is changing the fragment, so
 * Back, Forward, bookmarks and shared links all work; the list for the place comes from the
 * cache in state/messages.ts when it is there.
 */

export const place = signal<Place>({ narrow: FEED });

export const currentNarrow = computed(() => place.value.narrow);

/** The list shown, opened (fetched or from the cache) as the place changes. */
export const currentList = signal<NarrowList | null>(null);

function follow() {
  const found = hashToPlace(location.hash, me.value.userId) ?? { narrow: FEED };
  place.value = found;
  currentList.value = openList(found.narrow, found.anchor);
}

/** Starts following the URL; called once the first snapshot is in. */
export function followUrl() {
  addEventListener("hashchange", follow);
  follow();
}

export const hashOf = (narrow: Narrow, anchor?: number) => placeToHash(anchor === undefined ? { narrow } : { narrow, anchor }, names);

export function goTo(narrow: Narrow, anchor?: number) {
  const hash = hashOf(narrow, anchor);
  if (location.hash === hash) follow();
  else location.hash = hash;
}
