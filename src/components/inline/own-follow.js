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
  }
} catch {}
