import type { CSSProperties } from 'react';
import { iconHref } from '../shared/icon-href.ts';

interface IconProps {
  /** An export of src/shared/icons.ts. */
  svg: string;
  className?: string;
  style?: CSSProperties;
}

/** The islands' twin of src/components/Icon.astro: the same <use> of the sprite, so server markup and hydration agree. */
export function Icon({ svg, className, style }: IconProps) {
  return (
    <svg className={className ? `icon ${className}` : 'icon'} aria-hidden="true" style={style}>
      <use href={iconHref(svg)} />
    </svg>
  );
}
