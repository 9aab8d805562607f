/** The strings the player islands show, read from the catalogue by the page and passed as props (keeps it out of the first load). */
import { t } from '../i18n/t.ts';
import { GEARS, type Gear } from '../shared/studio.ts';

/** Builds the player strings; call from a page's frontmatter. */
export function playerText() {
  return {
    play: t('player.play'),
    pause: t('player.pause'),
    unmute: t('player.unmute'),
    mute: t('player.mute'),
    volume: t('player.volume'),
    progress: t('player.progress'),
    speed: t('player.speed'),
    quality: t('player.quality'),
    qualityAuto: t('player.quality.auto'),
    /** 1080P, 720P, 540P. */
    gears: Object.fromEntries(GEARS.map((gear) => [gear, t('player.quality.gear', { gear })])) as Record<Gear, string>,
    clear: t('player.clear'),
    autoNext: t('player.autoNext'),
    autoNextShort: t('player.autoNextShort'),
    autoNextOn: t('player.autoNextOn'),
    autoNextOff: t('player.autoNextOff'),
    /** '已切换至{rate}x倍速': the player fills in the rate. */
    speedNote: t('player.speedNote'),
    webFull: t('player.webFull'),
    exitWebFull: t('player.exitWebFull'),
    full: t('player.full'),
    exitFull: t('player.exitFull'),
    danmaku: t('player.danmaku'),
    controls: t('player.controls'),
    prev: t('player.prev'),
    next: t('player.next'),
    feed: t('player.feed'),
    end: t('player.end'),
    miniClose: t('player.miniClose'),
    like: t('video.likes'),
    comment: t('video.comments'),
    collect: t('video.collects'),
    share: t('video.shares'),
    later: t('video.watchLater'),
    notInterested: t('video.notInterested'),
    whyTitle: t('why.title'),
    muteAuthor: t('mute.author'),
    more: t('video.more'),
    report: t('report.title'),
    captions: t('player.captions'),
    actions: t('video.actions'),
    units: [t('count.tenThousand'), t('count.hundredMillion')] as [string, string],
    follow: [t('user.follow'), t('user.followed'), t('user.mutual')] as [string, string, string],
  };
}

export type PlayerText = ReturnType<typeof playerText>;
