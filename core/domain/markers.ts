/** The markers the cleaning leaves where it took something out (SPEC.md: The handoff). */
export const REDACTED = '[redacted]'
export const CODE_OMITTED = '[code omitted]'
