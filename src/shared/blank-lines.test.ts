import { describe, expect, it } from 'vitest';
import { collapseBlankLines } from './blank-lines.ts';

describe('collapseBlankLines', () => {
  it.each([
    ['a run of blank lines becomes one', `第一段${'\n'.repeat(9)}第二段`, '第一段\n\n第二段'],
    ['a single line break stays', '一\n二', '一\n二'],
    ['one blank line stays', '一\n\n二', '一\n\n二'],
    ['lines of spaces count as blank', '一\n  \n\t\n \n二', '一\n\n二'],
    ['Windows line ends are line ends', '一\r\n\r\n\r\n\r\n二\r三', '一\n\n二\n三'],
    ['leading and trailing blank lines go', '\n\n \n正文\n\n\n', '正文'],
    ['spaces inside a line are left alone', '  缩进  的行  ', '  缩进  的行  '],
  ])('%s', (_, input, stored) => {
    expect(collapseBlankLines(input)).toBe(stored);
  });
});
