import { afterEach, describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import { footerLinkData, publishedFooterBlocks, setFooterLinks } from './footer-links.ts';

useFreshDb(() => {});

afterEach(() => {
  setFooterLinks(publishedFooterBlocks);
});

describe('footer links', () => {
  it('the seeded blocks are valid and every block has links', async () => {
    const blocks = await publishedFooterBlocks();
    expect(blocks.length).toBeGreaterThan(0);
    expect(new Set(blocks.map((b) => b.id)).size).toBe(blocks.length);
  });

  it('answers link_data in the editors’ order, each link an anchor and a url', async () => {
    setFooterLinks(async () => [
      { id: 'b', title: '第二', order: 2, links: [{ title: '直播', href: '/live' }] },
      {
        id: 'a',
        title: '第一',
        order: 1,
        links: [
          { title: '热点', href: '/hot' },
          { title: '放映厅', href: '/vs' },
        ],
      },
    ]);
    expect(await footerLinkData()).toEqual([
      {
        id: 'a',
        title: '第一',
        link_list: [
          { anchor: '热点', url: '/hot' },
          { anchor: '放映厅', url: '/vs' },
        ],
      },
      { id: 'b', title: '第二', link_list: [{ anchor: '直播', url: '/live' }] },
    ]);
  });
});
