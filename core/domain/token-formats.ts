// The provider token formats and their matcher, under the name scripts/bench-redact.mjs reads them by; they live
// in ./redaction (token-table.ts, the facts; tokens.ts, the matching).
export { findTokens, tokenFormats, type TokenFormat, type TokenSpan } from './redaction/tokens'
