import { describe, expect, it } from 'vitest';
import {
  ageOn,
  birthdayProblem,
  chinaToday,
  cleanNickname,
  cleanSignature,
  nicknameProblem,
  signatureProblem,
} from './profile-edit.ts';

describe('birthdayProblem', () => {
  it.each([
    ['', null],
    ['2000-02-29', null],
    ['2024-06-01', null],
    ['2001-02-29', 'error.birthdayInvalid'],
    ['2000-13-01', 'error.birthdayInvalid'],
    ['2000-1-1', 'error.birthdayInvalid'],
    ['1899-12-31', 'error.birthdayInvalid'],
    ['2024-06-02', 'error.birthdayFuture'],
  ])('%s on 2024-06-01 → %s', (birthday, key) => {
    expect(birthdayProblem(birthday, '2024-06-01')?.key ?? null).toBe(key);
  });
});

describe('ageOn', () => {
  it.each([
    ['2000-06-01', '2024-06-01', 24],
    ['2000-06-02', '2024-06-01', 23],
    ['2000-02-29', '2023-02-28', 22],
    ['2000-02-29', '2023-03-01', 23],
  ])('%s on %s is %i', (birthday, today, age) => expect(ageOn(birthday, today)).toBe(age));
});

describe('nickname and bio', () => {
  it('trims and counts code points', () => {
    expect(cleanNickname('  小明 ')).toBe('小明');
    expect(nicknameProblem('👍'.repeat(20))).toBeNull();
    expect(nicknameProblem('👍'.repeat(21))).toEqual({ key: 'error.nicknameTooLong', vars: { max: 20 } });
    expect(nicknameProblem('')?.key).toBe('error.nicknameEmpty');
    expect(nicknameProblem('a\tb')?.key).toBe('error.nicknameInvalid');
  });

  it("keeps a bio's line breaks and refuses other controls", () => {
    expect(cleanSignature(' 一\r\n二 ')).toBe('一\n二');
    expect(signatureProblem('一\n二')).toBeNull();
    expect(signatureProblem('一\u0000二')?.key).toBe('error.signatureInvalid');
  });
});

it("chinaToday follows China's calendar", () => {
  expect(chinaToday(new Date('2024-05-31T16:30:00Z'))).toBe('2024-06-01');
});
