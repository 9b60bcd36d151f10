/**
 * Slack's Block Kit limits, in characters (UTF-16 code units, which never undercounts) or items. Slack refuses a
 * payload that breaks one with `invalid_blocks` (messages) or `invalid_arguments` (views), and sending it again can
 * never succeed. Sources: docs.slack.dev/reference/block-kit (blocks, block elements, composition objects) and
 * docs.slack.dev/reference/views/modal-views; chat.postMessage for the message text.
 */

/** Blocks in one message. */
export const MAX_MESSAGE_BLOCKS = 50;
/** Blocks in one view: a modal or the App Home tab. */
export const MAX_VIEW_BLOCKS = 100;
/** A message's top-level `text`: Slack truncates past this, and refuses with `msg_too_long`. */
export const MAX_MESSAGE_TEXT = 40_000;
/**
 * All text in one message's blocks together. Not in Slack's reference: chat.postMessage refuses with
 * `msg_blocks_too_long` somewhere past 11,000–13,000 characters of block text (slackapi/bolt-js #2509, #2867;
 * Slack's staff quoted 12,000 with a buffer for the containers). This budget keeps a safe margin below that.
 */
export const MAX_MESSAGE_BLOCKS_TEXT = 10_000;

/** A text object (section text, context element): 1 to 3,000 characters. */
export const MAX_TEXT_OBJECT = 3_000;
export const MAX_SECTION_TEXT = MAX_TEXT_OBJECT;
export const MAX_SECTION_FIELDS = 10;
export const MAX_SECTION_FIELD_TEXT = 2_000;
/** Header block text (plain_text only). */
export const MAX_HEADER_TEXT = 150;
export const MAX_CONTEXT_ELEMENTS = 10;
export const MAX_ACTIONS_ELEMENTS = 25;
/** Input block label and hint (plain_text). */
export const MAX_INPUT_LABEL = 2_000;
export const MAX_INPUT_HINT = 2_000;
export const MAX_BLOCK_ID = 255;

export const MAX_BUTTON_TEXT = 75;
export const MAX_BUTTON_VALUE = 2_000;
export const MAX_BUTTON_URL = 3_000;
/** Option text in select menus and overflow menus. */
export const MAX_OPTION_TEXT = 75;
export const MAX_OPTION_VALUE = 150;
/** Options in a static_select. */
export const MAX_SELECT_OPTIONS = 100;
export const MAX_PLACEHOLDER = 150;
/** plain_text_input max_length can be at most this. */
export const MAX_PLAIN_TEXT_INPUT = 3_000;

/** Modal title, submit and close button texts. */
export const MAX_MODAL_TITLE = 24;
export const MAX_MODAL_BUTTON = 24;
export const MAX_PRIVATE_METADATA = 3_000;
export const MAX_CALLBACK_ID = 255;
