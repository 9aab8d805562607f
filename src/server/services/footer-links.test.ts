import { afterEach, describe, expect, it } from 'vitest';
import { footerLinkData, footerLinksPath, readFooterFile, setFooterLinks } from './footer-links.ts';

afterEach(() => {
  setFooterLinks(() => readFooterFile());
});

describe('footer links', () => {
  it('the editors’ file is valid and every block has links', async () => {
    const blocks = await readFooterFile();
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

  it('FOOTER_LINKS_FILE names another file', () => {
    process.env.FOOTER_LINKS_FILE = 'elsewhere/links.json';
    try {
      expect(footerLinksPath()).toMatch(/elsewhere\/links\.json$/);
    } finally {
      delete process.env.FOOTER_LINKS_FILE;
    }
  });
});
