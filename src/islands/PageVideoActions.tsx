import { useState } from 'react';
import { readPageData, type PageData } from '../shared/page-data.ts';
import type { PlayerData } from './Player.tsx';
import { VideoActions } from './VideoActions.tsx';

/**
 * The line of actions under a page's player (src/components/VideoPlayer.astro), its video and texts read from the
 * page's JSON block rather than from its props (src/shared/page-data.ts says why).
 */
export function PageVideoActions({ data }: { data: PageData<PlayerData> }) {
  const [{ item, text }] = useState(() => readPageData(data));
  return <VideoActions item={item} text={text} variant="row" />;
}
