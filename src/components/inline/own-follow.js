// 关注 never shows where it would follow oneself (one's own works, profile and list rows). The viewer is known only in
// the browser (pages are the same for everyone), so one style rule, set before the first paint, hides every follow
// button marked data-follow-for with the viewer's sec_uid, whether the server or an island rendered it. It keeps its
// place (visibility, not display), so that nothing moves, and is out of reach (hidden content takes no focus).
try {
  var me = (JSON.parse(localStorage.getItem('sy.user') || 'null') || {}).userInfo;
  me = me && me.sec_uid;
  if (typeof me === 'string' && /^[\w-]{1,100}$/.test(me)) {
    var rule = document.createElement('style');
    rule.id = 'sy-own-follow';
    rule.textContent = '[data-follow-for="' + me + '"]{visibility:hidden!important}';
    document.head.appendChild(rule);
    // One's own profile by its address is the same public page others see: a member is taken to /user/self, the
    // page about them, with all of its tabs (喜欢, 收藏, 观看历史 and 稍后再看 even when others are not shown them).
    if (location.pathname === '/user/' + me && /(^|;\s*)sy_member=1/.test(document.cookie)) {
      location.replace('/user/self' + location.search + location.hash);
    }
  }
} catch {}
