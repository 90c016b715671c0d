// Text from elsewhere (a skill, a memory entry, a subagent's report) handed to the model
// inside a tag of Peon's: attribute values escaped, and the tag's closing form made
// inert in the text, so nothing inside can end the envelope and speak from outside it.

/** A value for an attribute (or element text): `&`, `<`, `>` and `"` escaped. */
export const xmlValue = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `text` with every `</tag` (any case) written `<\/tag`, which ends nothing. */
export function inertClosing(text: string, tag: string): string {
  const escaped = tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`<\\/(${escaped})`, 'gi'), '<\\/$1');
}
