/**
 * Slack's Block Kit limits as the fake enforces them, written from Slack's reference (docs.slack.dev/reference/
 * block-kit, views/modal-views) independently of the app's own constants: a wrong number in the app is caught here
 * instead of being agreed with. Each violation reads like Slack's own: `must be less than 3001 characters
 * [json-pointer:/blocks/0/text/text]`. Lengths are JS lengths (UTF-16 code units), never fewer than Slack counts.
 */

type Obj = Record<string, unknown>;
export type Surface = "message" | "modal" | "home";

const LIMIT = {
  messageBlocks: 50,
  viewBlocks: 100,
  messageText: 40_000,
  /** Undocumented; chat.postMessage answers msg_blocks_too_long past about this much block text. */
  messageBlocksText: 12_000,
  textObject: 3_000,
  sectionFields: 10,
  sectionField: 2_000,
  header: 150,
  contextElements: 10,
  actionsElements: 25,
  inputLabel: 2_000,
  inputHint: 2_000,
  blockId: 255,
  actionId: 255,
  buttonText: 75,
  buttonValue: 2_000,
  buttonUrl: 3_000,
  optionText: 75,
  optionValue: 150,
  selectOptions: 100,
  /** Options in radio_buttons and checkboxes. */
  choiceOptions: 10,
  placeholder: 150,
  plainTextInputMax: 3_000,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3_000,
  callbackId: 255,
} as const;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

class Checker {
  readonly errors: string[] = [];

  fail(message: string, pointer: string): void {
    this.errors.push(`${message} [json-pointer:${pointer}]`);
  }

  maxLength(value: unknown, max: number, pointer: string): void {
    if (typeof value === "string" && value.length > max) this.fail(`must be less than ${max + 1} characters`, pointer);
  }

  maxItems(list: unknown, max: number, pointer: string): void {
    if (Array.isArray(list) && list.length > max) this.fail(`must be no more than ${max} items`, pointer);
  }

  /** A text object: 1 to `max` characters; `plainOnly` where Slack takes only plain_text. */
  text(t: unknown, max: number, pointer: string, plainOnly = false): void {
    if (t === undefined) return;
    if (!isObj(t) || typeof t.text !== "string") {
      this.fail("must be a text object", pointer);
      return;
    }
    if (plainOnly && t.type !== "plain_text") this.fail("must be plain_text", `${pointer}/type`);
    if (t.text.length === 0) this.fail("must be more than 0 characters", `${pointer}/text`);
    this.maxLength(t.text, max, `${pointer}/text`);
  }

  option(o: unknown, pointer: string): void {
    if (!isObj(o)) {
      this.fail("must be an option object", pointer);
      return;
    }
    this.text(o.text, LIMIT.optionText, `${pointer}/text`);
    this.maxLength(o.value, LIMIT.optionValue, `${pointer}/value`);
  }

  element(e: unknown, pointer: string): void {
    if (!isObj(e)) {
      this.fail("must be an element object", pointer);
      return;
    }
    this.maxLength(e.action_id, LIMIT.actionId, `${pointer}/action_id`);
    this.text(e.placeholder, LIMIT.placeholder, `${pointer}/placeholder`, true);
    if (e.type === "button") {
      this.text(e.text, LIMIT.buttonText, `${pointer}/text`, true);
      this.maxLength(e.value, LIMIT.buttonValue, `${pointer}/value`);
      this.maxLength(e.url, LIMIT.buttonUrl, `${pointer}/url`);
    }
    if (e.type === "static_select" || e.type === "multi_static_select") {
      this.maxItems(e.options, LIMIT.selectOptions, `${pointer}/options`);
      if (Array.isArray(e.options)) for (const [i, o] of e.options.entries()) this.option(o, `${pointer}/options/${i}`);
      if (e.initial_option !== undefined) this.option(e.initial_option, `${pointer}/initial_option`);
    }
    if (e.type === "radio_buttons" || e.type === "checkboxes") {
      if (!Array.isArray(e.options) || e.options.length === 0) this.fail("must have options", `${pointer}/options`);
      this.maxItems(e.options, LIMIT.choiceOptions, `${pointer}/options`);
      if (Array.isArray(e.options)) for (const [i, o] of e.options.entries()) this.option(o, `${pointer}/options/${i}`);
      if (e.initial_option !== undefined) this.option(e.initial_option, `${pointer}/initial_option`);
      if (Array.isArray(e.initial_options))
        for (const [i, o] of e.initial_options.entries()) this.option(o, `${pointer}/initial_options/${i}`);
    }
    if (e.type === "number_input") {
      if (typeof e.is_decimal_allowed !== "boolean") this.fail("must provide is_decimal_allowed", pointer);
      for (const f of ["initial_value", "min_value", "max_value"] as const) {
        if (e[f] !== undefined && (typeof e[f] !== "string" || !Number.isFinite(Number(e[f]))))
          this.fail("must be a number as a string", `${pointer}/${f}`);
      }
    }
    if (e.type === "plain_text_input") {
      const max = typeof e.max_length === "number" ? e.max_length : LIMIT.plainTextInputMax;
      if (max > LIMIT.plainTextInputMax)
        this.fail(`must be less than ${LIMIT.plainTextInputMax + 1}`, `${pointer}/max_length`);
      this.maxLength(e.initial_value, max, `${pointer}/initial_value`);
    }
  }

  block(b: unknown, pointer: string): void {
    if (!isObj(b) || typeof b.type !== "string") {
      this.fail("must be a block object", pointer);
      return;
    }
    this.maxLength(b.block_id, LIMIT.blockId, `${pointer}/block_id`);
    switch (b.type) {
      case "section":
        if (b.text === undefined && b.fields === undefined) this.fail("must provide text or fields", pointer);
        this.text(b.text, LIMIT.textObject, `${pointer}/text`);
        this.maxItems(b.fields, LIMIT.sectionFields, `${pointer}/fields`);
        if (Array.isArray(b.fields))
          for (const [i, f] of b.fields.entries()) this.text(f, LIMIT.sectionField, `${pointer}/fields/${i}`);
        if (b.accessory !== undefined) this.element(b.accessory, `${pointer}/accessory`);
        break;
      case "header":
        this.text(b.text, LIMIT.header, `${pointer}/text`, true);
        break;
      case "context":
        if (!Array.isArray(b.elements) || b.elements.length === 0)
          this.fail("must have elements", `${pointer}/elements`);
        this.maxItems(b.elements, LIMIT.contextElements, `${pointer}/elements`);
        for (const [i, e] of (Array.isArray(b.elements) ? b.elements : []).entries()) {
          if (isObj(e) && e.type !== "image") this.text(e, LIMIT.textObject, `${pointer}/elements/${i}`);
        }
        break;
      case "actions":
        if (!Array.isArray(b.elements) || b.elements.length === 0)
          this.fail("must have elements", `${pointer}/elements`);
        this.maxItems(b.elements, LIMIT.actionsElements, `${pointer}/elements`);
        if (Array.isArray(b.elements))
          for (const [i, e] of b.elements.entries()) this.element(e, `${pointer}/elements/${i}`);
        break;
      case "input":
        this.text(b.label, LIMIT.inputLabel, `${pointer}/label`, true);
        this.text(b.hint, LIMIT.inputHint, `${pointer}/hint`, true);
        this.element(b.element, `${pointer}/element`);
        break;
    }
  }

  blocks(list: unknown, max: number, pointer: string): void {
    if (list === undefined) return;
    if (!Array.isArray(list)) {
      this.fail("must be an array", pointer);
      return;
    }
    this.maxItems(list, max, pointer);
    for (const [i, b] of list.entries()) this.block(b, `${pointer}/${i}`);
  }
}

/** Characters in every text object under `value`. */
export function blockKitTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + blockKitTextLength(v), 0);
  if (!isObj(value)) return 0;
  const own = (value.type === "mrkdwn" || value.type === "plain_text") && typeof value.text === "string";
  return Object.values(value).reduce(
    (n: number, v) => n + blockKitTextLength(v),
    own ? (value.text as string).length : 0,
  );
}

/** What Slack would refuse in a message's `text` and `blocks`, as Slack's own messages; [] when valid. */
export function messageViolations(msg: { text?: unknown; blocks?: unknown }): string[] {
  const c = new Checker();
  c.maxLength(msg.text, LIMIT.messageText, "/text");
  c.blocks(msg.blocks, LIMIT.messageBlocks, "/blocks");
  return c.errors;
}

/** The block text past which chat.postMessage answers `msg_blocks_too_long`. */
export function blocksTooLong(blocks: unknown): boolean {
  return blockKitTextLength(blocks) > LIMIT.messageBlocksText;
}

/** What Slack would refuse in a view (modal or App Home), as Slack's own messages; [] when valid. */
export function viewViolations(view: unknown): string[] {
  const c = new Checker();
  if (!isObj(view)) return ["must be a view object [json-pointer:/view]"];
  c.blocks(view.blocks, LIMIT.viewBlocks, "/view/blocks");
  if (view.type === "modal") {
    if (view.title === undefined) c.fail("must provide a title", "/view");
    c.text(view.title, LIMIT.modalTitle, "/view/title", true);
    c.text(view.submit, LIMIT.modalButton, "/view/submit", true);
    c.text(view.close, LIMIT.modalButton, "/view/close", true);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObj(b) && b.type === "input");
    if (hasInput && view.submit === undefined) c.fail("must provide submit when an input block is present", "/view");
  }
  c.maxLength(view.private_metadata, LIMIT.privateMetadata, "/view/private_metadata");
  c.maxLength(view.callback_id, LIMIT.callbackId, "/view/callback_id");
  return c.errors;
}
