// Languages and the shell's own strings. Chapters carry their own strings.

export const LANGS = ['en', 'zh'];
export const LANG_NAMES = { en: 'English', zh: '中文' };
export const HTML_LANG = { en: 'en', zh: 'zh-CN' };

// 'zh' for any Chinese browser language, else 'en'.
export function detectLang(languages) {
  const list = Array.isArray(languages) ? languages : [languages];
  for (const l of list) {
    if (typeof l !== 'string') continue;
    if (/^zh\b/i.test(l)) return 'zh';
    if (/^en\b/i.test(l)) return 'en';
  }
  return 'en';
}

const STRINGS = {
  en: {
    title: 'Attention Lab',
    tagline: 'Attention, computed live, one step at a time',
    chapters: 'Chapters',
    language: 'Language',
    loading: 'Loading the attention engine…',
    engineFailed: 'The attention engine could not be loaded: {msg}',
    badHash: 'Some settings in the link could not be read, so their defaults are used:',
    badStage: 'unknown stage "{stage}"',
    dismiss: 'Dismiss',
    steps: 'Steps',
    prevStep: 'Previous step',
    nextStep: 'Next step',
    showTable: 'Show as table',
    showHeatmap: 'Show as heatmap',
    heatmapKeys: 'Arrow keys move between cells; Enter selects one.',
    heatmap: 'heatmap',
    chapterError: 'Something went wrong while drawing this chapter: {msg}',
    footer: 'Every score, weight, output, entropy and random draw on this page is computed by a C++ engine compiled to WebAssembly ({build}). The theory they are compared with (normal curves, expected counts and ranges, √d_k, ln n) and the sums marked as checks are worked out by the page in JavaScript.',
  },
  zh: {
    title: '注意力实验室',
    tagline: '一步一步，现场计算注意力',
    chapters: '章节',
    language: '语言',
    loading: '正在加载注意力计算引擎……',
    engineFailed: '注意力计算引擎加载失败：{msg}',
    badHash: '链接里有些设置无法识别，已改用默认值：',
    badStage: '没有名为“{stage}”的步骤',
    dismiss: '关闭',
    steps: '步骤',
    prevStep: '上一步',
    nextStep: '下一步',
    showTable: '以表格显示',
    showHeatmap: '以热力图显示',
    heatmapKeys: '方向键在格子间移动，回车键选中。',
    heatmap: '热力图',
    chapterError: '绘制本章时出错：{msg}',
    footer: '页面上的分数、权重、输出、熵和随机抽样，全部由编译成 WebAssembly 的 C++ 引擎计算（{build}）。用来对照的理论值（正态曲线、期望频数和预期范围、√d_k、ln n），以及标明为核对的求和，由页面用 JavaScript 按公式算出。',
  },
};

// Fills {name} placeholders.
export function fill(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// A shell string in `lang`, English as the fallback.
export function t(lang, key, params) {
  const s = STRINGS[lang]?.[key] ?? STRINGS.en[key] ?? key;
  return fill(s, params);
}

// A string lookup over a chapter's { en: {...}, zh: {...} } table.
export function lookup(table, lang, key, params) {
  const s = table?.[lang]?.[key] ?? table?.en?.[key];
  if (s === undefined) return key;
  return typeof s === 'function' ? s(params || {}) : fill(s, params);
}

// A reason from the state schema ("not an integer", "outside 1..64", ...) in `lang`.
const REASONS_ZH = [
  [/^not an integer$/, () => '不是整数'],
  [/^not a number$/, () => '不是数字'],
  [/^outside (.+)\.\.(.+)$/, (a, b) => `超出 ${a} 到 ${b} 的范围`],
  [/^not 0 or 1$/, () => '应为 0 或 1'],
  [/^not one of (.+)$/, (v) => `应为其中之一：${v}`],
  [/^unknown field$/, () => '没有这个设置项'],
  [/^too long$/, () => '太长'],
  [/^more than (\d+) items$/, (n) => `超过 ${n} 项`],
  [/^more than (\d+) rows$/, (n) => `超过 ${n} 行`],
  [/^more than (\d+) columns$/, (n) => `超过 ${n} 列`],
  [/^items must be 0 or 1$/, () => '每一项应为 0 或 1'],
  [/^items must be numbers$/, () => '每一项都应是数字'],
  [/^empty item$/, () => '有空的项'],
  [/^rows of different lengths$/, () => '各行长度不一'],
  [/^not all numbers$/, () => '含有非数字'],
  [/^bad escape$/, () => '编码有误'],
];
export function reason(lang, text) {
  if (lang !== 'zh') return text;
  for (const [re, f] of REASONS_ZH) {
    const m = re.exec(text);
    if (m) return f(...m.slice(1));
  }
  return text;
}
