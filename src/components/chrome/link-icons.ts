import {
  riBookOpenLine,
  riBriefcaseLine,
  riBroadcastLine,
  riCustomerService2Line,
  riFolderVideoLine,
  riInformationLine,
  riLineChartLine,
  riLiveLine,
  riUploadCloud2Line,
} from '../../shared/icons.ts';
/** Icons of the header's content links by entry id (src/content/header-links.json). */
export const LINK_ICONS: Record<string, string> = {
  publish: riUploadCloud2Line,
  manage: riFolderVideoLine,
  data: riLineChartLine,
  live: riBroadcastLine,
  'live-data': riLiveLine,
  learn: riBookOpenLine,
  service: riCustomerService2Line,
  business: riBriefcaseLine,
  'live-companion': riBroadcastLine,
  creator: riCustomerService2Line,
  about: riInformationLine,
};
