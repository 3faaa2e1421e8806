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
    showTable: 'Show as table',
    showHeatmap: 'Show as heatmap',
    heatmapKeys: 'Arrow keys move between cells; Enter selects one.',
    rowsAre: 'rows',
    colsAre: 'columns',
    masked: 'masked',
    notANumber: 'Please type a number.',
    chapterError: 'Something went wrong while drawing this chapter: {msg}',
    footer: 'Every number on this page is computed by a C++ engine compiled to WebAssembly ({build}).',
  },
  zh: {
    title: '注意力实验室',
    tagline: '一步一步，现场计算注意力',
    chapters: '章节',
    language: '语言',
    loading: '正在加载注意力计算引擎……',
    engineFailed: '注意力计算引擎加载失败：{msg}',
    badHash: '链接里有些设置读不懂，已改用默认值：',
    badStage: '没有名为“{stage}”的步骤',
    dismiss: '关闭',
    showTable: '以表格显示',
    showHeatmap: '以热力图显示',
    heatmapKeys: '方向键在格子间移动，回车键选中。',
    rowsAre: '行',
    colsAre: '列',
    masked: '已遮盖',
    notANumber: '请输入一个数字。',
    chapterError: '绘制本章时出错：{msg}',
    footer: '页面上的每个数字都由编译成 WebAssembly 的 C++ 引擎计算（{build}）。',
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
