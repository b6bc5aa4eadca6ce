/** What the wizard has gathered so far; it lives in this page only (a reload starts over or signs in). */
export interface SetupState {
  code: string;
  orgName: string;
  orgUrl: string;
  /** Set once the organization exists and its owner is signed in. */
  owner: { email: string; fullName: string } | null;
  /** Where mail stands after the e-mail step. */
  mail: "saved" | "environment" | "skipped";
  channelsCreated: string[];
  invited: string[];
}

export interface StepProps {
  state: SetupState;
  update: (changes: Partial<SetupState>) => void;
  next: () => void;
  back: () => void;
}

export const initialState = (): SetupState => ({ code: "", orgName: "", orgUrl: location.origin, owner: null, mail: "skipped", channelsCreated: [], invited: [] });
