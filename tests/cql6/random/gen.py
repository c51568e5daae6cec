#!/usr/bin/env python3
"""Random CQL 6 scripts for a differential check of cqldb against CQL 6.2.

Usage: gen.py --seed N --count K --out DIR

Writes DIR/rNNNN.cql: K scripts drawn from a typed grammar of the CQL 6 families issues
36 and 37 name (piece and square designators, set operators, attacks, directions, pins,
rays, pawn sets, numbers and chained comparisons, status filters, move filters and dash
moves, lines, transforms, square/piece loops, find, variables). Each script is a header
`cql(input games.pgn)` and one to three top-level filters. The same seed gives the same
scripts (Python's random.Random), so a run can be repeated and the expected games kept.

The scripts are only meaningful where CQL 6.2 accepts them: tests/cql6/random/README.md
says how the expected games were made and how cqldb's answers are compared.
"""
import argparse
import os
import random

PIECE_LETTERS = "KQRBNPkqrbnp"
FILES = "abcdefgh"


class Gen:
    def __init__(self, rng, part2_share=0.0):
        self.r = rng
        self.part2_share = part2_share  # the share of top-level filters from part2()
        self.vars = []  # square/piece variables in scope

    def pick(self, *xs):
        return self.r.choice(xs)

    # ---- squares and pieces -------------------------------------------------------------
    def square_part(self):
        r = self.r
        kind = r.randrange(6)
        if kind == 0:
            return r.choice(FILES) + str(r.randint(1, 8))
        if kind == 1:
            f = r.choice(FILES)
            a = r.randint(1, 7)
            return f"{f}{a}-{r.randint(a + 1, 8)}"
        if kind == 2:
            a = r.randrange(7)
            b = r.randrange(a + 1, 8)
            return f"{FILES[a]}-{FILES[b]}{r.randint(1, 8)}"
        if kind == 3:
            a = r.randrange(7)
            b = r.randrange(a + 1, 8)
            lo = r.randint(1, 7)
            return f"{FILES[a]}-{FILES[b]}{lo}-{r.randint(lo + 1, 8)}"
        if kind == 4:
            return "[" + ",".join(r.choice(FILES) + str(r.randint(1, 8)) for _ in range(r.randint(2, 3))) + "]"
        return f"a-h{r.randint(1, 8)}"

    def piece_atom(self):
        r = self.r
        kind = r.randrange(10)
        if kind < 4:
            p = r.choice(PIECE_LETTERS)
        elif kind < 6:
            p = r.choice(["A", "a", "_", "[Aa]", "."])
        else:
            p = "[" + "".join(sorted(set(r.sample(PIECE_LETTERS, r.randint(2, 3))))) + "]"
        if p != "." and r.random() < 0.3:
            p += self.square_part()
        return p

    def set_atom(self):
        r = self.r
        if self.vars and r.random() < 0.3:
            return r.choice(self.vars)
        if r.random() < 0.15:
            return self.square_part()
        return self.piece_atom()

    # ---- sets ---------------------------------------------------------------------------
    def set_expr(self, d):
        r = self.r
        if d <= 0:
            return self.set_atom()
        k = r.randrange(16)
        if k < 4:
            return self.set_atom()
        if k == 4:
            return f"({self.set_expr(d - 1)} & {self.set_expr(d - 1)})"
        if k == 5:
            return f"({self.set_expr(d - 1)} | {self.set_expr(d - 1)})"
        if k == 6:
            return f"~{self.set_atom()}"
        if k == 7:
            op = self.pick("attacks", "attackedby", "->", "<-")
            return f"({self.set_expr(d - 1)} {op} {self.set_expr(d - 1)})"
        if k == 8:
            dirs = ["up", "down", "left", "right", "northeast", "northwest", "southeast", "southwest",
                    "diagonal", "orthogonal", "vertical", "horizontal", "anydirection"]
            dn = r.choice(dirs)
            rng = self.pick("", f"{r.randint(1, 3)} ", f"{r.randint(1, 2)} {r.randint(2, 5)} ")
            return f"({dn} {rng}{self.set_expr(d - 1)})"
        if k == 9:
            return f"between({self.set_atom()} {self.set_atom()})"
        if k == 10:
            return f"({self.pick('light', 'dark')} {self.set_expr(d - 1)})"
        if k == 11:
            pawns = self.pick("passedpawns", "isolatedpawns", "doubledpawns", "connectedpawns")
            return f"({pawns} & {self.set_expr(d - 1)})" if r.random() < 0.6 else pawns
        if k == 12:
            parts = []
            for key in ("from", "through", "to"):
                if r.random() < 0.6:
                    parts.append(f"{key} {self.set_atom()}")
            return "(pin " + " ".join(parts) + ")"
        if k == 13:
            dn = self.pick("diagonal", "orthogonal", "horizontal", "vertical", "up", "left", "northeast")
            items = " ".join(self.set_atom() for _ in range(r.randint(2, 3)))
            return f"(ray {dn} ({items}))"
        if k == 14:
            items = " ".join(self.set_atom() for _ in range(r.randint(2, 3)))
            return f"(xray ({items}))"
        return f"(move {self.pick('from', 'to')} {self.set_atom()})" if r.random() < 0.5 else self.set_atom()

    # ---- numbers ------------------------------------------------------------------------
    def num_expr(self, d):
        r = self.r
        if d <= 0:
            return self.pick(str(r.randint(0, 8)), f"#{self.set_atom()}", "ply", "movenumber")
        k = r.randrange(12)
        if k < 3:
            return f"#{self.set_expr(d - 1)}"
        if k == 3:
            return str(r.randint(-2, 12))
        if k == 4:
            return f"({self.num_expr(d - 1)} {self.pick('+', '-', '*')} {self.num_expr(d - 1)})"
        if k == 5:
            return f"abs({self.num_expr(d - 1)} - {self.num_expr(d - 1)})"
        if k == 6:
            return f"{self.pick('max', 'min')}({self.num_expr(d - 1)} {self.num_expr(d - 1)})"
        if k == 7:
            return f"(power ({self.set_expr(d - 1)}))"
        if k == 8:
            return self.pick("ply", "movenumber")
        if k == 9:
            return f"({self.num_expr(d - 1)} % {r.randint(2, 5)})"
        if k == 10:
            return f"({self.num_expr(d - 1)} / {r.randint(1, 4)})"
        return f"#{self.set_atom()}"

    def compare(self, d):
        r = self.r
        n = r.choice([2, 2, 2, 3])
        # CQL 6.2 chains comparisons of one direction only
        ops = r.choice([["==", "!="], ["<", "<=", "=="], [">", ">=", "=="]]) if n == 2 else r.choice([["<", "<="], [">", ">="]])
        parts = [self.num_expr(d - 1)]
        for _ in range(n - 1):
            parts += [r.choice(ops), self.num_expr(d - 1)]
        return "(" + " ".join(parts) + ")"

    # ---- filters ------------------------------------------------------------------------
    def move_filter(self):
        r = self.r
        parts = []
        if r.random() < 0.3:
            parts.append(self.pick("previous", "legal", "pseudolegal"))
        for key in ("from", "to", "capture"):
            if r.random() < 0.35:
                parts.append(f"{key} {self.set_atom()}")
        x = r.random()
        if x < 0.1:
            parts.append(f"promote {self.pick('Q', 'N', 'R', 'B', '[QN]', 'A')}")
        elif x < 0.18:
            parts.append("castle")
        elif x < 0.22:
            parts.append("enpassant")
        return "move " + " ".join(parts)

    def dash(self):
        r = self.r
        a = self.set_atom() if r.random() < 0.8 else ""
        b = self.set_atom() if r.random() < 0.8 else ""
        op = self.pick("--", "[x]", "--")
        s = f"{a}{op}{b}"
        if op == "--" and r.random() < 0.15:
            s += "=" + self.pick("Q", "N", "[RB]")
        return s

    def status(self):
        return self.pick("check", "mate", "stalemate", "wtm", "btm", "initial", "terminal")

    def line(self, d):
        r = self.r
        arrow = self.pick("-->", "-->", "<--")
        items = []
        for _ in range(r.randint(2, 3)):
            f = self.simple_filter(d - 1)
            q = r.random()
            if q < 0.15:
                f = f"{self.brace(f)}{{{r.randint(1, 2)},{r.randint(2, 4)}}}"
            elif q < 0.25:
                f = f"{self.brace(f)}*"
            elif q < 0.32:
                f = f"{self.brace(f)}+"
            elif q < 0.38:
                f = f"{self.brace(f)}?"
            elif q < 0.45:
                f = "."
            items.append(f)
        params = self.pick("", "", "quiet ", "singlecolor ")
        return f"line {params}{arrow} " + f" {arrow} ".join(items)

    def brace(self, f):
        return f if f.startswith("(") or f.startswith("{") or " " not in f else "(" + f + ")" if not f.startswith("move") else "{" + f + "}"

    def simple_filter(self, d):
        r = self.r
        k = r.randrange(10)
        if k < 3:
            return self.set_expr(max(d, 0))
        if k < 5:
            return self.compare(max(d, 1))
        if k < 7:
            return self.status()
        if k == 7:
            return "{" + self.move_filter() + "}"
        if k == 8:
            return self.dash()
        return "{" + self.set_expr(max(d, 0)) + " " + self.status() + "}"

    def filt(self, d):
        r = self.r
        if d <= 0:
            return self.simple_filter(0)
        k = r.randrange(22)
        if k < 5:
            return self.simple_filter(d)
        if k == 5:
            return f"not {self.brace_f(self.filt(d - 1))}"
        if k == 6:
            return f"{self.brace_f(self.filt(d - 1))} or {self.brace_f(self.filt(d - 1))}"
        if k == 7:
            return "{" + self.filt(d - 1) + " " + self.filt(d - 1) + "}"
        if k == 8:
            return self.line(d)
        if k in (9, 10):
            t = self.pick("flipcolor", "flip", "flipvertical", "fliphorizontal", "rotate90", "rotate45",
                          "shift", "shifthorizontal", "shiftvertical", "reversecolor", "flipcolor")
            return f"{t} {{{self.filt(d - 1)} {self.simple_filter(d - 1)}}}"
        if k == 11:
            return f"if {self.brace_f(self.simple_filter(d - 1))} then {self.brace_f(self.simple_filter(d - 1))} else {self.brace_f(self.simple_filter(d - 1))}"
        if k in (12, 13):
            kind = self.pick("square", "piece", "square all", "piece all")
            # CQL 6.2 gives a variable one type for the whole script
            name = f"{'x' if kind.startswith('square') else 'p'}{len(self.vars)}"
            within = self.set_expr(d - 1)
            self.vars.append(name)
            body = self.filt(d - 1)
            self.vars.pop()
            return f"{kind} {name} in {within} {{{body}}}"
        if k == 14:
            form = self.pick("find", "find all", "find <--", f"find {r.randint(1, 3)} {r.randint(3, 9)}")
            body = self.simple_filter(d - 1)
            if form == "find all":
                return f"(find all {{{body}}}) {self.pick('>=', '==', '<')} {r.randint(1, 12)}"
            return f"{form} {{{body}}}"
        if k == 15:
            return self.dash()
        if k == 16:
            return f"{self.pick('parent', 'child')} : {self.brace_f(self.simple_filter(d - 1))}"
        if k == 17:
            return f"(move {self.pick('from', 'to')} {self.set_atom()}) & {self.set_atom()}"
        if k == 18:
            return "{" + self.move_filter() + "}"
        if k == 19:
            return self.compare(d)
        if k == 20:
            v = f"n{r.randint(0, 9)}"
            return f"{{{v} = {self.num_expr(d - 1)} {v} {self.pick('>', '<', '==')} {self.num_expr(d - 1)}}}"
        return self.status()

    def part2(self, d):
        """Values, navigation, echo, path, strings, functions (issue 37's families)."""
        r = self.r
        k = r.randrange(14)
        if k == 0:
            return f"{{S = {self.set_expr(d)} #S {self.pick('>=', '==', '<')} {r.randint(0, 3)}}}"
        if k == 1:
            return (f"{{Start = currentposition find {self.pick('', 'all ')}{{{self.simple_filter(0)} "
                    f"ply >= Start:ply + {r.randint(1, 12)}}}}}")
        if k == 2:
            return f"({self.pick('parent', 'child')} : {self.num_expr(1)}) {self.pick('>', '<', '==', '!=')} {self.num_expr(1)}"
        if k == 3:
            return f"distance(position 0 currentposition) {self.pick('>=', '<=')} {r.randint(5, 60)}"
        if k == 4:
            extra = self.pick("#A == s:#A", "#a == s:#a", "s & t == .", "power A == s:power A", "check")
            return (f"echo (s t) {{s < t sidetomove == s:sidetomove {extra} "
                    f"{self.pick('ply - s:ply >= 6', '#[Aa] == s:#[Aa]', self.simple_filter(0))}}}")
        if k == 5:
            return f"⊢ ({self.simple_filter(0)} ――){{{r.randint(1, 3)},}}"
        if k == 6:
            return f"⊢ {self.set_atom()}――{self.set_atom()} ―― * {self.status()}"
        if k == 7:
            return f"sort {self.pick('', 'min ')}\"v\" {self.num_expr(d)}"
        if k == 8:
            return self.pick(f'player {self.pick("white", "black")} ~~ "{r.choice("ABCDEFGHKLMNPRST")}"',
                             f"year {self.pick('>=', '<')} {r.randint(1900, 2010)}",
                             f"result {self.pick('1-0', '0-1', '1/2-1/2')}",
                             f'str(ply) ~~ "^{r.randint(1, 9)}"')
        if k == 9:
            name = f"p{len(self.vars)}"
            self.vars.append(name)
            body = self.pick(f"find {{{name} & {self.set_atom()}}}", f"{name} attacks {self.set_atom()}",
                             f"#(anydirection 1 {name} & {self.set_atom()}) >= 1")
            self.vars.pop()
            return f"piece {name} in {self.piece_atom()} {{{body}}}"
        if k == 10:
            return f"{{Val = {self.num_expr(d)} Val += {self.num_expr(1)} Val {self.pick('>', '<', '>=')} {r.randint(0, 10)}}}"
        if k == 11:
            return f"if {self.brace_f(self.simple_filter(0))} then {self.num_expr(1)} else {self.num_expr(1)}"
        if k == 12:
            return f"{{Here = currentposition (child : ply) == Here:ply + 1 {self.simple_filter(0)}}}"
        return f"(find all {{{self.simple_filter(0)}}}) {self.pick('>=', '<=')} {r.randint(1, 8)}"

    def brace_f(self, f):
        return f if f.startswith("{") else "{" + f + "}"

    def script(self):
        r = self.r
        params = ["input games.pgn"]
        if r.random() < 0.2:
            params.append("variations")
        if r.random() < 0.08:
            params.append(f"matchcount {r.randint(1, 3)} {r.randint(3, 100)}")
        body = [self.filt(r.randint(1, 3)) if r.random() >= self.part2_share else self.part2(r.randint(1, 2))
                for _ in range(r.randint(1, 3))]
        head = ""
        if r.random() < self.part2_share / 4:
            head = "function F(x) {#(A attacks x) + #(a attacks x)}\n"
            body.append(f"F({self.set_atom()}) {self.pick('>=', '==')} {r.randint(1, 3)}")
        return "cql(" + " ".join(params) + ")\n" + head + "\n".join(body) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", required=True)
    ap.add_argument("--first", type=int, default=0, help="number of the first script")
    ap.add_argument("--part2", type=float, default=0.0, help="share of filters from issue 37's families")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    for i in range(a.first, a.first + a.count):
        g = Gen(rng, a.part2)
        with open(os.path.join(a.out, f"r{i:04d}.cql"), "w") as f:
            f.write(f"// random script {i}, tests/cql6/random/gen.py --seed {a.seed}\n" + g.script())


if __name__ == "__main__":
    main()
