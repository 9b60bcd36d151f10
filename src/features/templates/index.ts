/** The templates feature's public face: other features, the demo and the benchmarks import from here only. */
export { DEFAULT_QUESTIONS, TEMPLATES } from "./templates.ts";
