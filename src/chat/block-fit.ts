/**
 * The last step of every Block Kit builder: whatever the content, the payload Slack gets is within its limits.
 * Builders split and shorten their content with care (block-text.ts); these functions guarantee the rest by
 * shortening any text past its limit, capping lists, and keeping a message's block text within its budget.
 */
import type {
  ActionsBlockElement,
  ContextBlock,
  HomeView,
  InputBlockElement,
  KnownBlock,
  ModalView,
  PlainTextOption,
  SectionBlock,
  TextObject,
} from "@slack/types";
import {
  MAX_ACTIONS_ELEMENTS,
  MAX_BUTTON_TEXT,
  MAX_CONTEXT_ELEMENTS,
  MAX_HEADER_TEXT,
  MAX_INPUT_HINT,
  MAX_INPUT_LABEL,
  MAX_MESSAGE_BLOCKS,
  MAX_MESSAGE_BLOCKS_TEXT,
  MAX_MESSAGE_TEXT,
  MAX_MODAL_BUTTON,
  MAX_MODAL_TITLE,
  MAX_OPTION_TEXT,
  MAX_PLACEHOLDER,
  MAX_SECTION_FIELD_TEXT,
  MAX_SECTION_FIELDS,
  MAX_SECTION_TEXT,
  MAX_SELECT_OPTIONS,
  MAX_TEXT_OBJECT,
  MAX_VIEW_BLOCKS,
} from "./block-limits.ts";
import { andMore, shareBudget, truncate } from "./block-text.ts";

/** A message as chat.postMessage, chat.update and an ephemeral answer take it. */
export interface ChatMessage {
  /** Shown in notifications and where blocks cannot be. */
  text: string;
  blocks: KnownBlock[];
}

export interface FitOptions {
  /** Blocks at the end that stay when the list is cut (a button row). */
  keepLast?: number;
  /** The line standing for the blocks left out; default "…and N more". */
  more?: (hidden: number) => string;
}

function text<T extends TextObject>(t: T, max: number): T {
  return t.text.length <= max ? t : { ...t, text: truncate(t.text, max) };
}

function options(list: PlainTextOption[]): PlainTextOption[] {
  return list.slice(0, MAX_SELECT_OPTIONS).map((o) => ({ ...o, text: text(o.text, MAX_OPTION_TEXT) }));
}

function element<E extends ActionsBlockElement | InputBlockElement>(e: E): E {
  const out = { ...e } as E & { placeholder?: TextObject };
  if (out.placeholder) out.placeholder = text(out.placeholder, MAX_PLACEHOLDER);
  if (out.type === "button") out.text = text(out.text, MAX_BUTTON_TEXT);
  if (out.type === "static_select" && out.options) {
    out.options = options(out.options);
    const initial = out.initial_option;
    if (initial) {
      if (out.options.some((o) => o.value === initial.value))
        out.initial_option = { ...initial, text: text(initial.text, MAX_OPTION_TEXT) };
      else delete out.initial_option;
    }
  }
  return out;
}

/** Every text and list of one block within its limit. */
export function fitBlock(block: KnownBlock): KnownBlock {
  switch (block.type) {
    case "section":
      return {
        ...block,
        ...(block.text ? { text: text(block.text, MAX_SECTION_TEXT) } : {}),
        ...(block.fields
          ? { fields: block.fields.slice(0, MAX_SECTION_FIELDS).map((f) => text(f, MAX_SECTION_FIELD_TEXT)) }
          : {}),
        ...(block.accessory ? { accessory: element(block.accessory as ActionsBlockElement) } : {}),
      } as SectionBlock;
    case "header":
      return { ...block, text: text(block.text, MAX_HEADER_TEXT) };
    case "context":
      return {
        ...block,
        elements: block.elements
          .slice(0, MAX_CONTEXT_ELEMENTS)
          .map((e) => ("text" in e && typeof e.text === "string" ? text(e, MAX_TEXT_OBJECT) : e)),
      } as ContextBlock;
    case "actions":
      return { ...block, elements: block.elements.slice(0, MAX_ACTIONS_ELEMENTS).map(element) };
    case "input":
      return {
        ...block,
        label: text(block.label, MAX_INPUT_LABEL),
        ...(block.hint ? { hint: text(block.hint, MAX_INPUT_HINT) } : {}),
        element: element(block.element),
      };
    default:
      return block;
  }
}

/** At most `max` blocks: past that, the last kept block says how many were left out. */
export function capBlocks(blocks: KnownBlock[], max: number, opts: FitOptions = {}): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  const keepLast = Math.min(opts.keepLast ?? 0, max - 1);
  const head = blocks.slice(0, max - 1 - keepLast);
  const tail = keepLast > 0 ? blocks.slice(-keepLast) : [];
  const hidden = blocks.length - head.length - tail.length;
  const note: KnownBlock = { type: "context", elements: [{ type: "mrkdwn", text: (opts.more ?? andMore)(hidden) }] };
  return [...head, note, ...tail];
}

/** Characters in every text object of a block or list of blocks, as Slack counts them against a message. */
export function blockTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + blockTextLength(v), 0);
  if (!value || typeof value !== "object") return 0;
  const o = value as Record<string, unknown>;
  const own = (o.type === "mrkdwn" || o.type === "plain_text") && typeof o.text === "string" ? o.text.length : 0;
  return Object.values(o).reduce((n: number, v) => n + blockTextLength(v), own);
}

/** The texts that carry content (section text and fields, context text): those a budget may shorten. */
function contentTexts(block: KnownBlock): TextObject[] {
  if (block.type === "section") return [...(block.text ? [block.text] : []), ...(block.fields ?? [])];
  if (block.type === "context") return block.elements.filter((e): e is TextObject => "text" in e);
  return [];
}

/** Shortens the longest content texts first until the blocks' text fits in `budget`. */
export function fitBlocksText(blocks: KnownBlock[], budget: number): KnownBlock[] {
  const total = blockTextLength(blocks);
  if (total <= budget) return blocks;
  const content = blocks.flatMap(contentTexts);
  const fixed = total - content.reduce((n, t) => n + t.text.length, 0);
  const shortened = shareBudget(
    content.map((t) => t.text),
    Math.max(0, budget - fixed),
  );
  const next = new Map(content.map((t, i) => [t, shortened[i] as string]));
  const swap = <T extends TextObject>(t: T): T => ({ ...t, text: next.get(t) ?? t.text });
  return blocks.map((b) => {
    if (b.type === "section")
      return { ...b, ...(b.text ? { text: swap(b.text) } : {}), ...(b.fields ? { fields: b.fields.map(swap) } : {}) };
    if (b.type === "context")
      return { ...b, elements: b.elements.map((e) => ("text" in e ? swap(e as TextObject) : e)) } as ContextBlock;
    return b;
  });
}

/** A message within every limit: texts, lists, 50 blocks, the blocks' text budget and the top-level text. */
export function fitMessage<M extends ChatMessage>(msg: M, opts: FitOptions = {}): M {
  const blocks = capBlocks(msg.blocks.map(fitBlock), MAX_MESSAGE_BLOCKS, opts);
  return {
    ...msg,
    text: truncate(msg.text, MAX_MESSAGE_TEXT),
    blocks: fitBlocksText(blocks, MAX_MESSAGE_BLOCKS_TEXT),
  };
}

/** A modal within every limit: its title and buttons, and at most 100 blocks. */
export function fitModal(view: ModalView, opts: FitOptions = {}): ModalView {
  return {
    ...view,
    title: text(view.title, MAX_MODAL_TITLE),
    ...(view.submit ? { submit: text(view.submit, MAX_MODAL_BUTTON) } : {}),
    ...(view.close ? { close: text(view.close, MAX_MODAL_BUTTON) } : {}),
    blocks: capBlocks((view.blocks as KnownBlock[]).map(fitBlock), MAX_VIEW_BLOCKS, opts),
  };
}

/** An App Home view with at most 100 blocks, each within its limits. */
export function fitHome(view: HomeView, opts: FitOptions = {}): HomeView {
  return { ...view, blocks: capBlocks((view.blocks as KnownBlock[]).map(fitBlock), MAX_VIEW_BLOCKS, opts) };
}
