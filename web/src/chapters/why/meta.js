// What the page needs of this chapter before its module loads (./index.js): its id, its title
// and the hash fields it owns.

export default {
  id: 'why',
  title: { en: 'Why attention', zh: '为什么需要注意力' },
  questions: ['why/lookup'],
  state: {
    whyAttn: { type: 'bool', default: false }, // bottleneck diagram: with attention
    whyTarget: { type: 'int', default: 0, min: 0, max: 2 }, // decoder word shown (猫 吃 鱼)
    whyQuery: { type: 'int', default: 1, min: 0, max: 2 }, // 猫 追 老鼠: whose question
  },
};
