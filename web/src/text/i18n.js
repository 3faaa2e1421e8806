// Languages and the shell's own strings. Chapters carry their own strings.

export const LANGS = ['en', 'zh'];
export const LANG_NAMES = { en: 'English', zh: '中文' };
export const HTML_LANG = { en: 'en', zh: 'zh-CN' };

export const STRINGS = {
  en: {
    title: 'Attention Lab',
    tagline: 'Attention, computed live, one step at a time',
    chapters: 'Chapters',
    language: 'Language',
    loading: 'Loading the attention engine…',
    engineFailed: 'The attention engine could not be loaded: {msg}',
    engineStopping:
      'The attention engine stopped after an internal error. A fresh one is being loaded; your settings are kept.',
    engineRestarted:
      'The attention engine stopped after an internal error, so it was loaded again and this chapter was redrawn. Your settings are kept.',
    reloadedNewBuild:
      'Attention Lab was updated while this page was open, so the page was reloaded into the new version. Your settings are kept.',
    badHash: 'Some settings in the link could not be read, so their defaults are used:',
    dismiss: 'Dismiss',
    skip: 'Skip to content',
    sentenceSep: ' ',
    ms: '{t} ms',
    steps: 'Steps',
    prevStep: 'Previous step',
    nextStep: 'Next step',
    showTable: 'Show as table',
    showHeatmap: 'Show as heatmap',
    heatmapKeys: 'Arrow keys move between cells; Enter selects one.',
    heatmap: 'heatmap',
    chapterError: 'Something went wrong while drawing this chapter: {msg}',
    hiddenValues: 'Set for this example: {list}',
    listSep: '; ',
    nameValue: '{name}: {value}',
    on: 'on',
    off: 'off',
    openFull: 'Open in Attention Lab',
    heightClamped: 'height="{asked}" is outside {min}–{max} pixels: the element is {used} pixels tall.',
    tokensEmpty: 'Type at least one token.',
    tokensMany: 'At most {max} tokens here (you typed {n}).',
    tokenLong: 'A token may have at most {max} characters (one has {n}).',
    tokensRefused: 'These tokens cannot be used: {why}.',
    builtinsBroken:
      'Attention Lab cannot run on this page: the page has changed JavaScript’s own functions, so the lessons would compute wrong numbers or none. Changed:',
    startFailed: 'Attention Lab could not start here:',
    otherElement:
      'this page already defines another element named <attention-lab>, so this copy of Attention Lab cannot draw its lessons:',
    saveFigure: 'Save this figure',
    savePng: 'Save this figure as PNG',
    saveSvg: 'Save this figure as SVG',
    figureMenu: 'Save or copy this figure',
    copyNumbers: 'Copy the numbers',
    copied: 'Numbers copied (tab-separated)',
    copyFailed: 'The browser did not allow copying',
    'carried.title': 'Set in another chapter, and changing the numbers here:',
    'carried.temperature': 'temperature T = {v}',
    'carried.fill': 'masked scores filled with {v}',
    'carried.stable': 'naive softmax (the max is not subtracted)',
    'carried.causal': 'causal mask on',
    'carried.reverseCausal': 'causal mask reversed',
    'carried.customMask': 'a hand-drawn mask',
    'carried.keyPadding': '{n} keys marked as padding',
    'carried.reset': 'Reset',
    'carried.resetOne': 'Reset: {what}',
    'path.label': 'The course',
    settings: 'More settings',
    'lead.more': 'More',
    'lead.less': 'Less',
    'nav.menu': 'Chapter {n} of {total}: {title}',
    'path.prev': '← {n}. {title}',
    'path.next': 'Next: {n}. {title} →',
    'path.home': '↩ Start page',
    'geo.plot': 'The query and the keys as arrows in two dimensions, each key projected onto the query',
    'geo.roledesc': 'movable arrow',
    'geo.hint':
      'Drag the tip of an arrow, or press Tab to reach one and move it with the arrow keys (with Shift, in bigger steps).',
    'geo.table': 'Each key’s score q·k, scaled score q·k / √2 and attention weight',
    'geo.colKey': 'Key',
    'geo.colScore': 'q·k',
    'geo.colScaled': 'q·k / √2',
    'geo.colWeight': 'weight',
    'geo.queryName': 'q: {name}',
    'geo.arrowQuery': 'Query “{name}” at ({x}, {y})',
    'geo.arrowKey': 'Key “{name}” at ({x}, {y}): projection onto q {proj}, q·k = {score}, weight {weight}',
    'geo.arrowKeyFlat': 'Key “{name}” at ({x}, {y}): q·k = {score}, weight {weight}',
    'geo.best':
      'The query “{q}” attends most to “{k}” (weight {w}): its projection onto q, {p}, is the longest, |k| cos θ = {len} × cos {deg}°.',
    'geo.longer': '“{k}” is longer ({len}) but points {deg}° away from q, so its projection is only {p}.',
    'geo.closer': '“{k}” points closer to q ({deg}°) but is shorter ({len}), so its projection is only {p}.',
    'geo.both': '“{k}” is both the longest key and the closest to q in direction.',
    'geo.bestFlat':
      'The query “{q}” attends most to “{k}” (weight {w}): it sits at the origin and scores {s}, while every other key points away from q and scores less.',
    'geo.zero': 'The query is the zero vector: every score is 0, so every key gets the same weight, {w}.',
    footer:
      'Every score, weight, output, entropy and random draw on this page is computed by a C++ engine compiled to WebAssembly ({build}). The theory they are compared with (normal curves, expected counts and ranges, √d_k, ln n, the lengths and angles of the q·k arrows) and the checks marked as such are worked out by the page in JavaScript.',
  },
  zh: {
    title: '注意力实验室',
    tagline: '一步一步，现场计算注意力',
    chapters: '章节',
    language: '语言',
    loading: '正在加载注意力计算引擎……',
    engineFailed: '注意力计算引擎加载失败：{msg}',
    engineStopping: '注意力计算引擎因内部错误停止了，正在重新加载。你的设置都还在。',
    engineRestarted: '注意力计算引擎因内部错误停止了，已经重新加载，本章也重新画好了。你的设置都还在。',
    reloadedNewBuild: '此页面打开期间注意力实验室已更新，页面已重新载入新版本。你的设置都还在。',
    badHash: '链接里有些设置无法识别，已改用默认值：',
    dismiss: '关闭',
    skip: '跳到正文',
    sentenceSep: '',
    ms: '{t} 毫秒',
    steps: '步骤',
    prevStep: '上一步',
    nextStep: '下一步',
    showTable: '以表格显示',
    showHeatmap: '以热力图显示',
    heatmapKeys: '方向键在格子间移动，回车键选中。',
    heatmap: '热力图',
    chapterError: '绘制本章时出错：{msg}',
    hiddenValues: '本例的设定：{list}',
    listSep: '；',
    nameValue: '{name}：{value}',
    on: '开',
    off: '关',
    openFull: '在注意力实验室中打开',
    heightClamped: 'height="{asked}" 超出 {min}–{max} 像素的范围：元素的高度取 {used} 像素。',
    tokensEmpty: '请至少输入一个词。',
    tokensMany: '这里最多 {max} 个词（你输入了 {n} 个）。',
    tokenLong: '每个词最多 {max} 个字符（有一个词有 {n} 个）。',
    tokensRefused: '这些词用不了：{why}。',
    builtinsBroken:
      'Attention Lab 无法在此页面运行：页面改动了 JavaScript 自带的函数，课程算出的数会出错或根本算不出。被改动的是：',
    startFailed: 'Attention Lab 在此无法启动：',
    otherElement: '此页面已定义了另一个名为 <attention-lab> 的元素，所以这份 Attention Lab 无法绘制课程：',
    saveFigure: '保存此图',
    savePng: '将此图保存为 PNG',
    saveSvg: '将此图保存为 SVG',
    figureMenu: '保存或复制此图',
    copyNumbers: '复制数值',
    copied: '数值已复制（以制表符分隔）',
    copyFailed: '浏览器不允许复制',
    'carried.title': '以下设置是在其他章节改的，也会影响本章的数值：',
    'carried.temperature': '温度 T = {v}',
    'carried.fill': '被屏蔽的分数填成 {v}',
    'carried.stable': '朴素 softmax（不减去最大值）',
    'carried.causal': '已开启因果掩码',
    'carried.reverseCausal': '因果掩码方向反了',
    'carried.customMask': '一个自己画的掩码',
    'carried.keyPadding': '{n} 个 Key 标成了填充位',
    'carried.reset': '恢复默认',
    'carried.resetOne': '恢复默认：{what}',
    'path.label': '课程',
    settings: '更多设置',
    'lead.more': '展开',
    'lead.less': '收起',
    'nav.menu': '第 {n} 章（共 {total} 章）：{title}',
    'path.prev': '← {n}. {title}',
    'path.next': '下一章：{n}. {title} →',
    'path.home': '↩ 回到起始页',
    'geo.plot': '二维平面上的 Query 和 Key 箭头，每个 Key 都投影到 Query 上',
    'geo.roledesc': '可移动的箭头',
    'geo.hint': '拖动箭头的尖端；也可以按 Tab 键选中一个箭头，再用方向键移动它（按住 Shift 一次移得更多）。',
    'geo.table': '每个 Key 的分数 q·k、缩放后的分数 q·k / √2 和注意力权重',
    'geo.colKey': 'Key',
    'geo.colScore': 'q·k',
    'geo.colScaled': 'q·k / √2',
    'geo.colWeight': '注意力权重',
    'geo.queryName': 'q：{name}',
    'geo.arrowQuery': 'Query “{name}”，位置 ({x}, {y})',
    'geo.arrowKey': 'Key “{name}”，位置 ({x}, {y})：在 q 上的投影 {proj}，q·k = {score}，注意力权重 {weight}',
    'geo.arrowKeyFlat': 'Key “{name}”，位置 ({x}, {y})：q·k = {score}，注意力权重 {weight}',
    'geo.best':
      'Query “{q}”最关注“{k}”（注意力权重 {w}）：它在 q 上的投影 {p} 最长，即 |k| cos θ = {len} × cos {deg}°。',
    'geo.longer': '“{k}”更长（{len}），但和 q 的夹角有 {deg}°，所以投影只有 {p}。',
    'geo.closer': '“{k}”的方向离 q 更近（{deg}°），但它更短（{len}），所以投影只有 {p}。',
    'geo.both': '“{k}”既是最长的 Key，方向也离 q 最近。',
    'geo.bestFlat': 'Query “{q}”最关注“{k}”（注意力权重 {w}）：它在原点，分数为 {s}；其余的 Key 都背离 q，分数更低。',
    'geo.zero': 'Query 是零向量：每个分数都是 0，所以每个 Key 得到同样的注意力权重 {w}。',
    footer:
      '页面上的分数、权重、输出、熵和随机抽样，全部由编译成 WebAssembly 的 C++ 引擎计算（{build}）。用来对照的理论值（正态曲线、期望频数和预期范围、√d_k、ln n，以及 q·k 图中箭头的长度和夹角），以及标明为核对的数值，由页面用 JavaScript 算出。',
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

// Sentences run together the way the language writes them (a space in English, none in Chinese).
export function sentences(lang, parts) {
  return parts.filter(Boolean).join(t(lang, 'sentenceSep'));
}

// Items of a list run together the way the language writes them ("a, b" / "a，b").
export function list(lang, items) {
  return items.join(t(lang, 'listSep'));
}

// The words a heatmap shows or announces (views/heatmap.js strings), in `lang`.
export const heatmapStrings = (lang) => ({
  showTable: t(lang, 'showTable'),
  showHeatmap: t(lang, 'showHeatmap'),
  keys: t(lang, 'heatmapKeys'),
  heatmap: t(lang, 'heatmap'),
});

// True when a chapter's { en: {...}, zh: {...} } table has `key` (in `lang` or English).
export function hasString(table, lang, key) {
  return (table?.[lang]?.[key] ?? table?.en?.[key]) !== undefined;
}

// A string lookup over a chapter's { en: {...}, zh: {...} } table.
export function lookup(table, lang, key, params) {
  const s = table?.[lang]?.[key] ?? table?.en?.[key];
  if (s === undefined) return key;
  return typeof s === 'function' ? s(params || {}) : fill(s, params);
}

// Why a value from the link was not used (or was cut): the state schema's { code, params }
// (state.js) in words.
export const REASONS = {
  en: {
    notInteger: 'not an integer',
    notNumber: 'not a number',
    outside: 'outside {min}..{max}',
    notBool: 'not 0 or 1',
    notOneOf: 'not one of {values}',
    unknownField: 'unknown field',
    unknownStage: 'unknown stage "{stage}"',
    unknownType: 'unknown type {type}',
    tooLong: 'too long',
    tooManyItems: 'more than {max} items',
    tooManyRows: 'more than {max} rows',
    tooManyCols: 'more than {max} columns',
    itemsBool: 'items must be 0 or 1',
    itemsNumbers: 'items must be numbers',
    emptyItem: 'empty item',
    unevenRows: 'rows of different lengths',
    notAllNumbers: 'not all numbers',
    badEscape: 'bad escape',
    controlChars: 'control characters are not allowed',
    keptFirst: 'more than {max} items: only the first {max} are used',
    cutItems: 'an item longer than {max} characters: it is cut to {max}',
    pastFloat32: 'a number too large for the engine (its numbers stay below 3.4e38)',
    notString: 'not text',
    notList: 'not a list',
    itemsStrings: 'items must be text',
    notMatrix: 'not a list of rows',
    notObject: 'expected an object of fields to set, got {got}',
  },
  zh: {
    notInteger: '不是整数',
    notNumber: '不是数字',
    outside: '超出 {min} 到 {max} 的范围',
    notBool: '应为 0 或 1',
    notOneOf: '应为其中之一：{values}',
    unknownField: '没有这个设置项',
    unknownStage: '没有名为“{stage}”的步骤',
    unknownType: '未知类型 {type}',
    tooLong: '太长',
    tooManyItems: '超过 {max} 项',
    tooManyRows: '超过 {max} 行',
    tooManyCols: '超过 {max} 列',
    itemsBool: '每一项应为 0 或 1',
    itemsNumbers: '每一项都应是数字',
    emptyItem: '有空的项',
    unevenRows: '各行长度不一',
    notAllNumbers: '含有非数字',
    badEscape: '编码有误',
    controlChars: '不能含有控制字符',
    keptFirst: '超过 {max} 项：只用前 {max} 项',
    cutItems: '有一项超过 {max} 个字符：已截成 {max} 个字符',
    pastFloat32: '数字太大，引擎算不了（它的数都在 3.4e38 以内）',
    notString: '不是文字',
    notList: '不是列表',
    itemsStrings: '每一项都应是文字',
    notMatrix: '不是由行组成的列表',
    notObject: '应传入一个包含设置项的对象，收到的是 {got}',
  },
};

export function reason(lang, { code, params } = {}) {
  const text = REASONS[lang]?.[code] ?? REASONS.en[code] ?? code;
  return fill(text, params);
}

// A value echoed back to the learner (in the notice), cut to `max` characters.
export function clip(text, max = 40) {
  const chars = [...String(text)];
  return chars.length > max ? chars.slice(0, max).join('') + '…' : chars.join('');
}
