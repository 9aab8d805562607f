/**
 * How text people write is stored (comments, replies, 私信, bios): Windows line ends become '\n', a line of only
 * spaces is blank, a run of blank lines becomes one, and blank lines before the first and after the last line go.
 * Eight empty lines in a comment left a 230 px gap on the page; one blank line still separates paragraphs.
 */
export function collapseBlankLines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/^[^\S\n]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}
