/** Class groups the studio's controls share: 44 px tall on a phone (a thumb's target), denser with a mouse. */
export const TAP = 'min-h-11 md:min-h-9';
/** A card of the studio's content. */
export const CARD = 'rounded-2xl bg-surface p-4 md:p-6';
/** A form row's label. */
export const FIELD_LABEL = 'text-sm font-semibold text-primary';
