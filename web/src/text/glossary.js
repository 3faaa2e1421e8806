// The page's terms in both languages: one name for each thing, used by every chapter (titles,
// strings, figure labels). A Chinese rendering listed under `not` is one the page used before and
// no longer uses (tests/js/glossary.test.js checks that no string of the page contains one).
//
//   term('pipeline', 'zh')   // '注意力流水线'

export const GLOSSARY = {
  pipeline: { en: 'the pipeline', zh: '注意力流水线', not: ['一步一步看注意力', '“流程”'] },
  memoryBar: { en: 'memory bar', zh: '内存占用条', not: ['内存条'] },
  heldOutAccuracy: { en: 'held-out accuracy', zh: '验证集准确率', not: ['留出集'] },
  probeSequence: { en: 'probe sequence', zh: '测试序列', not: ['探针序列'] },
  query: { en: 'query', zh: 'Query', not: [] },
  key: { en: 'key', zh: 'Key', not: [] },
  value: { en: 'value', zh: 'Value', not: [] },
  mask: { en: 'mask', zh: '掩码', not: ['遮罩'] },
  weights: { en: 'attention weights', zh: '注意力权重', not: [] },
  scores: { en: 'scores', zh: '分数', not: [] },
  heatmap: { en: 'heatmap', zh: '热力图', not: ['热图'] },
  temperature: { en: 'temperature', zh: '温度', not: [] },
  head: { en: 'head', zh: '头', not: [] },
  linearAttention: { en: 'linear attention', zh: '线性注意力', not: ['线形注意力'] },
};

export function term(name, lang) {
  const t = GLOSSARY[name];
  if (!t) throw new Error(`glossary: no term ${name}`);
  return t[lang] ?? t.en;
}
