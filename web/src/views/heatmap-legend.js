// A heatmap's colour legend: a gradient bar with an axis that follows the domain (the gradient is
// drawn once), or, for a matrix of a few values only (a 0/1 mask), one swatch and name a value.

import { scaleLinear } from 'd3-scale';
import { axisBottom } from 'd3-axis';
import { select } from 'd3-selection';
import { MUTED } from './palette.js';

// legend: the heatmap's <svg>; id: the heatmap's id (for the gradient's); levels: [[value, name],
// ...] for a matrix of a few values only, else null. -> draw(domain, pal), which redraws only
// when the domain changed.
export function createLegend(legend, id, levels) {
  let legendKey = '';
  let legendAxis = null;
  return function drawLegend(domain, pal) {
    const key = `${domain[0]}:${domain[1]}`;
    if (key === legendKey) return;
    legendKey = key;
    const w = 200,
      h = 34;
    // A few values: one swatch and name each, not a continuous bar.
    if (levels) {
      const svg = select(legend).attr('viewBox', `0 0 ${w} ${h}`).attr('class', 'hm-legend hm-levels');
      svg.selectAll('*').remove();
      const step = (w - 8) / levels.length;
      levels.forEach(([value, name], k) => {
        const t = (value - domain[0]) / (domain[1] - domain[0] || 1);
        const g = svg
          .append('g')
          .attr('class', 'hm-level')
          .attr('transform', `translate(${8 + k * step},6)`);
        g.append('rect').attr('width', 16).attr('height', 16).attr('stroke', MUTED).attr('fill', pal.interp(t));
        g.append('text').attr('x', 22).attr('y', 13).text(name);
      });
      return;
    }
    if (!legendAxis) {
      const svg = select(legend).attr('viewBox', `0 0 ${w} ${h}`);
      const gid = `${id}-grad`;
      const grad = svg.append('defs').append('linearGradient').attr('id', gid);
      for (let k = 0; k <= 10; k++)
        grad
          .append('stop')
          .attr('offset', `${k * 10}%`)
          .attr('stop-color', pal.interp(k / 10));
      svg
        .append('rect')
        .attr('x', 8)
        .attr('y', 2)
        .attr('width', w - 16)
        .attr('height', 10)
        .attr('fill', `url(#${gid})`);
      legendAxis = svg.append('g').attr('class', 'axis').attr('transform', 'translate(0,12)');
    }
    const x = scaleLinear()
      .domain(domain)
      .range([8, w - 8]);
    legendAxis.call(axisBottom(x).ticks(4).tickSizeOuter(0));
  };
}
