/**
 * What model providers accept as a function name, the strictest of them (OpenAI:
 * `^[a-zA-Z0-9_-]{1,64}$`; Anthropic allows 128 characters, neither allows dots or spaces).
 */
const maxNameLength = 64

type NameChar =
  | 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j' | 'k' | 'l' | 'm' | 'n' | 'o' | 'p' | 'q' | 'r' | 's' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z'
  | 'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H' | 'I' | 'J' | 'K' | 'L' | 'M' | 'N' | 'O' | 'P' | 'Q' | 'R' | 'S' | 'T' | 'U' | 'V' | 'W' | 'X' | 'Y' | 'Z'
  | '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '_' | '-'

type NameOf<Id extends string, Name extends string, Length extends unknown[]> = Length['length'] extends typeof maxNameLength
  ? Name
  : Id extends `${infer Head}${infer Rest}`
    ? NameOf<Rest, `${Name}${Head extends NameChar ? Head : '_'}`, [...Length, unknown]>
    : Name

/** `aiSdkToolName` at the type level: a tool's key among the AI SDK tools, from its literal id. */
export type AiSdkToolName<Id extends string> = string extends Id ? string : NameOf<Id, '', []>

/**
 * A tool's name for the model: its id where every provider takes it as it is (`weather-tool`), else
 * the id with every other character `_`, cut to 64 (`'Lookup order'` → `Lookup_order`, `orders.lookup`
 * → `orders_lookup`). Ids may be any string, as in Mastra; a model provider refuses a request whose
 * tool names it does not accept (OpenAI answers 400 for a dot), so the AI SDK tools are keyed by this.
 */
export function aiSdkToolName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, maxNameLength)
}
