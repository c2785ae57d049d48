// The planner's public surface: pure functions from (desired, live) to a Plan or a Drift.
export { buildPlan, type PlanOptions, type PlanResult, NOT_IN_CONFIG, PRUNE, RESEND_REASON } from './build-plan.js';
export { buildDrift, buildDriftResult, type DriftOptions, type DriftResult } from './build-drift.js';
export { wantParsers } from './want-parsers.js';
export { configDigest } from './digest.js';
export { compareChanges, sortChanges } from './order.js';
