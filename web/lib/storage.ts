/**
 * localStorage keys the spec names (section 3, "Local storage"), behind helpers that never
 * throw: storage can be disabled (private modes, strict policies) and the app must still run.
 */
export const STORAGE_KEYS = {
  theme: "theme",
  allowReset: "allowReset",
} as const;
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

export function readStorage(key: StorageKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: StorageKey, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the choice simply does not persist.
  }
}

export function removeStorage(key: StorageKey): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // see writeStorage
  }
}

/** The password-reset gate's local flag: set at sign-in, removed after a successful reset. */
export const allowResetFlag = {
  isSet: () => readStorage(STORAGE_KEYS.allowReset) === "true",
  set: () => writeStorage(STORAGE_KEYS.allowReset, "true"),
  clear: () => removeStorage(STORAGE_KEYS.allowReset),
};
