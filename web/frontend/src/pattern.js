// Board -> query: the CQL-S (position ...) list of a board's pieces ("search this pattern")
// and the exact-position query ("search this position", as `cqldb query --fen`).

const LETTER = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
const ORDER = 'kqrbnp';

/** `(match (position :fen "FEN"))`: the games reaching exactly this position. */
export const positionQuery = (fen) => `(match (position :fen "${fen}"))`;

/**
 * The pattern query of `pieces` ([{color, role, square}]): each piece on its square, other
 * squares free, as a CQL-S position list; `flipColor` adds :flipcolor (the same with colours
 * swapped and the board mirrored), `shift` adds :shift (anywhere the pattern fits shifted),
 * `sideToMove` ('white'/'black') adds :wtm/:btm, null for either side.
 */
export function patternQuery(pieces, { flipColor = false, shift = false, sideToMove = null } = {}) {
  const sorted = [...pieces].sort((a, b) =>
    (a.color === b.color ? 0 : a.color === 'white' ? -1 : 1) ||
    ORDER.indexOf(LETTER[a.role]) - ORDER.indexOf(LETTER[b.role]) ||
    (a.square < b.square ? -1 : a.square > b.square ? 1 : 0));
  const designators = sorted.map((p) => {
    const letter = LETTER[p.role];
    return (p.color === 'white' ? letter.toUpperCase() : letter) + p.square;
  });
  const options = [];
  if (flipColor) options.push(':flipcolor');
  if (shift) options.push(':shift');
  if (sideToMove) options.push(sideToMove === 'white' ? ':wtm' : ':btm');
  return `(match\n  (position ${designators.join(' ')}${options.length ? '\n    ' + options.join(' ') : ''}))`;
}
