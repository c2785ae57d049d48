// What `plan` writes: the plan in the format asked for, and the saved plan file. Loaded by
// cli/plan.ts while the live state is read, off the path to the first request.

import { serializePlan } from '../plan/plan-file.js';
import type { Plan } from '../plan/types.js';
import type { DesiredAction } from '../model/types.js';
import { renderPlanMarkdown } from '../report/plan-markdown.js';
import { renderPlanText } from '../report/plan-text.js';
import { useColor, type Io } from './io.js';

export { serializePlan };

export function renderPlan(plan: Plan, format: 'text' | 'json' | 'markdown', io: Io, actions: readonly DesiredAction[]): string {
  switch (format) {
    case 'json': return serializePlan(plan);
    case 'markdown': return renderPlanMarkdown(plan, { actions });
    case 'text': return renderPlanText(plan, { color: useColor(io), width: io.stdout.columns ?? 100 });
  }
}
