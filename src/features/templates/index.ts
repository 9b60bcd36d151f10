/** The templates feature's public face: other features (and tests, demo, bench) import from here only. */
export { listTemplates, templateRoutes } from "./templates.routes.ts";
export { DEFAULT_QUESTIONS, findTemplate, type QuestionTemplate, TEMPLATES } from "./templates.ts";
