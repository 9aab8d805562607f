import type { CSSProperties } from 'react';

interface IconProps {
  /** An export of src/shared/icons.ts. */
  svg: string;
  className?: string;
  style?: CSSProperties;
}

/** The islands' twin of src/components/Icon.astro: the same inline SVG, so server markup and hydration agree. */
export function Icon({ svg, className, style }: IconProps) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      viewBox="0 0 24 24"
      width="1.2em"
      height="1.2em"
      aria-hidden="true"
      style={style}
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
