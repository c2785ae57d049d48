// The export's promise: load what it wrote with the real config loader, plan against the same
// live state, and get no changes. (The CLI's end-to-end test does the same over HTTP.)
import { describe, expect, it } from 'vitest';
import { loadSources } from '../../src/config/load.js';
import { exportConfig } from '../../src/export/export-config.js';
import type { LiveState } from '../../src/model/types.js';
import { buildPlan } from '../../src/plan/build-plan.js';
import { sampleLive } from './sample-live.js';

/**
 * The sample minus what a config cannot express: a duplicate name, an operator not in the
 * catalog, and regexes the device's (Java) dialect rejects (a leading `*`, a literal `{`):
 * export writes those as they are, and `validate` rightly flags them.
 */
const INVALID_ON_DEVICE = new Set(['tricky-2', 'tricky-3', 'tricky-7']);

function expressibleLive(): LiveState {
  const live = sampleLive();
  live.actions = live.actions.filter((a) => a.id !== 'a5' && a.id !== 'a6');
  live.parsers = live.parsers.filter((p) => !INVALID_ON_DEVICE.has(p.category));
  return live;
}

describe.each(['file', 'dir'] as const)('export (%s layout) then plan', (layout) => {
  it('loads without errors and plans no changes', () => {
    const live = expressibleLive();
    const { files } = exportConfig(live, { layout, schemaPath: '../schemas/menuctl.schema.json' });
    const loaded = loadSources(
      files.map((f) => ({ file: f.path, text: f.content })),
      { env: {}, cwd: '/nonexistent', catalog: live.operators },
    );
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const { plan, diagnostics } = buildPlan(loaded.state!, live);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(plan.changes).toEqual([]);

    // Control: the same pipeline does see a difference, so the empty plan above means something.
    const edited = expressibleLive();
    edited.parsers.find((p) => p.category === 'tricky-1')!.regex += ' ';
    const again = buildPlan(loaded.state!, edited).plan;
    expect(again.changes.map((c) => [c.op, c.address])).toEqual([['update', 'action["Check balance"].parser["tricky-1"]']]);
  });
});
