/** Password policy, shared by the forms' schemas and the services. */

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
/** How many earlier passwords a new one must differ from. */
export const PASSWORD_HISTORY_SIZE = 10;

export type PasswordProblem = "password.tooShort" | "password.tooLong" | "password.tooWeak";

/** At least 10 characters with a letter and a digit or symbol. */
export function checkPasswordStrength(password: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN_LENGTH) return "password.tooShort";
  if (password.length > PASSWORD_MAX_LENGTH) return "password.tooLong";
  if (!/\p{L}/u.test(password) || !/[^\p{L}]/u.test(password)) return "password.tooWeak";
  return null;
}
