// A config of N actions x P parsers with one fixture per action, written as YAML text: what
// `validate` and `test` benches load (bench/validate.mjs, bench/scale.mjs). Its app needs HOOK in the env.

// `from`: the first action's number, for one file of a config split into several (the app is
// written in the first file only).
export function configWithFixtures(actions, parsers, from = 0) {
  const out = ['version: 1', 'actions:'];
  for (let i = from; i < from + actions; i++) {
    out.push(`  - name: Action ${i}`, `    root_code: "*${100 + (i % 800)}*${i}#"`, '    transport_type: ussd',
      '    operators: [2172, 2645]', '    steps:', '      - press: 1', '        expect: My account', '      - variable: amount', '      - pin',
      '    parsers:');
    for (let p = 0; p < parsers; p++) {
      out.push(`      - category: cat-${p}`, `        status: ${p === 0 ? 'succeeded' : 'failed'}`,
        `        regex: '.*Reply ${p} for ${i}: balance UGX (?<balance${p}>\\d+)\\.'`, `        user_message: Balance {balance${p}}`);
    }
    out.push('    tests:', `      - message: 'Reply 0 for ${i}: balance UGX 100.'`, '        expect: { category: cat-0, variables: { balance0: "100" } }');
  }
  if (from === 0) out.push('apps:', '  - name: Agent', '    package_name: com.example.agent', '    webhook_url: ${HOOK}');
  return `${out.join('\n')}\n`;
}
