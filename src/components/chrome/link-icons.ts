/** Icons of the header's content links by entry id (src/content/header-links.json), kept in code so UnoCSS sees them. */
export const LINK_ICONS: Record<string, string> = {
  publish: 'i-ri-upload-cloud-2-line',
  manage: 'i-ri-folder-video-line',
  data: 'i-ri-line-chart-line',
  'live-data': 'i-ri-live-line',
  learn: 'i-ri-book-open-line',
  service: 'i-ri-customer-service-2-line',
  business: 'i-ri-briefcase-line',
  'live-companion': 'i-ri-broadcast-line',
  creator: 'i-ri-customer-service-2-line',
  about: 'i-ri-information-line',
};
