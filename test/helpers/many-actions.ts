// A block-style config of `count` actions, one parser each: big enough that a plan's output goes
// out in several writes (test/cli/plan-stream.test.ts, reader-gone.test.ts).
export function manyActionsYaml(count: number): string {
  const lines = ['version: 1', 'actions:'];
  for (let i = 0; i < count; i++) {
    lines.push(`  - name: Action ${i}`, `    root_code: "*${100 + i}#"`, '    transport_type: ussd', '    operators: [2172]', '    parsers:',
      '      - category: ok', '        status: succeeded', `        regex: 'Reply ${i}: (?<v>\\d+)'`);
  }
  return `${lines.join('\n')}\n`;
}
