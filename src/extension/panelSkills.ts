// The chat's skills in the panel (issue 14): what the composer offers after `/` (name,
// description, where it came from, whether it forks a subagent), and the skills that
// were skipped, with why, for the panel's warning (never passed over silently).
import { cutText as cut } from '../shared/format';
import type { Conversation } from '../core/conversation/index';
import { visibleText } from '../shared/hiddenText';
import type { HostMessage, SkillInfo } from '../shared/messages';

/** What one `skills` message carries, at most (the protocol's bounds). */
const MAX_SKILLS = 1000;
const MAX_PROBLEMS = 1000;

/** The `skills` message for a conversation's catalog (none without a conversation). */
export function skillsMessage(conversation: Pick<Conversation, 'skills'> | undefined): Extract<HostMessage, { type: 'skills' }> {
  if (!conversation) return { type: 'skills', skills: [], problems: [] };
  const skills: SkillInfo[] = conversation.skills
    .list()
    .slice(0, MAX_SKILLS)
    .map((s) => ({ name: s.name, description: cut(visibleText(s.description), 1024), source: cut(visibleText(s.source), 4096), fork: s.context === 'fork' }));
  const warnings = conversation.skills.warnings;
  const problems = warnings.length > MAX_PROBLEMS ? [...warnings.slice(0, MAX_PROBLEMS - 1), `… and ${warnings.length - MAX_PROBLEMS + 1} more skipped`] : warnings;
  // A folder's name and a parse error come from the repository: what they hide is shown.
  return { type: 'skills', skills, problems: problems.map((p) => cut(visibleText(p), 4000)) };
}
