/** Family A seo/inner/link: the footer's link blocks as douyin.com answers them (`link_data[].link_list[]` of `anchor` and `url`). */
import { z } from 'zod';
import { footerLinkData } from '../../services/footer-links.ts';
import { okA } from '../envelope.ts';
import { route } from '../registry.ts';
import { bodyA } from '../schemas.ts';

const linkData = z.object({
  id: z.string(),
  /** The block's heading, e.g. 热门频道. */
  title: z.string(),
  link_list: z.array(z.object({ anchor: z.string(), url: z.string() })),
});

export const seoRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/seo/inner/link/',
    family: 'A',
    auth: false,
    summary: 'Footer link blocks, one link_data entry per block with its title',
    input: z.object({}),
    response: bodyA({ link_data: z.array(linkData) }),
    handler: async () => okA({ link_data: await footerLinkData() }),
  }),
];
