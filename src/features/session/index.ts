/** The session feature's public face: other features, the demo and the benchmarks import from here only. */
export { issueLoginToken, loginUrl } from "./login-token.ts";
export { findSessionUser, insertSession } from "./sessions.repo.ts";
