#!/usr/bin/env python3
"""Scratch explicit-state checker for the example programs (temporary, deleted when done)."""
import re, sys, itertools
from collections import deque

TOK = re.compile(r"\s+|//[^\n]*|/\*.*?\*/|(:=|!=|=>|[A-Za-z_][A-Za-z0-9_$@.#]*|\d+|[(){};,:=!~&|^*<>'\[\]])", re.S)
def lex(s):
    toks=[]; pos=0; line=1
    while pos < len(s):
        m = TOK.match(s, pos)
        if not m: raise SyntaxError("bad char %r at line %d" % (s[pos], line))
        if m.group(1): toks.append((m.group(1), line))
        line += s.count("\n", pos, m.end()); pos = m.end()
    toks.append(("<eof>", line)); return toks

class P:
    def __init__(s, text): s.t = lex(text); s.i = 0
    def peek(s, k=0): return s.t[s.i+k][0]
    def next(s): v = s.t[s.i][0]; s.i += 1; return v
    def eat(s, v):
        if s.peek() != v: raise SyntaxError("line %d: expected %s got %s" % (s.t[s.i][1], v, s.peek()))
        return s.next()
    def ident(s):
        v = s.next()
        if not re.match(r"[A-Za-z_]", v) or v in KW: raise SyntaxError("line %d: expected ident got %s" % (s.t[s.i-1][1], v))
        return v
    def program(s):
        g=[]; locks=[]; funcs={}; order=[]
        while s.peek() != "<eof>":
            if s.peek() == "decl": s.next(); g += s.idlist(); s.eat(";")
            elif s.peek() == "lock": s.next(); locks += s.idlist(); s.eat(";")
            else:
                f = s.func(); funcs[f["name"]] = f; order.append(f["name"])
        return dict(globals=g, locks=locks, funcs=funcs, order=order)
    def idlist(s):
        l=[s.ident()]
        while s.peek() == ",": s.next(); l.append(s.ident())
        return l
    def func(s):
        th = False
        if s.peek() == "thread": s.next(); th = True
        ty = s.next(); nret = 0
        if ty == "bool":
            nret = 1
            if s.peek() == "<": s.next(); nret = int(s.next()); s.eat(">")
        elif ty != "void": raise SyntaxError("bad type %s" % ty)
        name = s.ident(); s.eat("("); params=[]
        if s.peek() != ")": params = s.idlist()
        s.eat(")"); s.eat("begin"); locs=[]
        while s.peek() == "decl": s.next(); locs += s.idlist(); s.eat(";")
        body = s.stmts({"end"}); s.eat("end")
        return dict(name=name, thread=th, nret=nret, params=params, locals=params+locs, body=body)
    def stmts(s, stop):
        l=[]
        while s.peek() not in stop: l.append(s.stmt())
        return l
    def stmt(s):
        labels=[]
        while re.match(r"[A-Za-z_]", s.peek()) and s.peek() not in KW and s.peek(1) == ":":
            labels.append(s.next()); s.next()
        st = s.stmt0(); st["labels"] = labels; return st
    def stmt0(s):
        k = s.peek()
        if k == "skip": s.next(); s.eat(";"); return dict(k="skip")
        if k in ("atomic_begin", "atomic_end"): s.next(); s.eat(";"); return dict(k=k)
        if k == "return":
            s.next(); es=[]
            if s.peek() != ";": es = s.exprs()
            s.eat(";"); return dict(k="return", es=es)
        if k == "goto": s.next(); ls = s.idlist(); s.eat(";"); return dict(k="goto", ls=ls)
        if k in ("assume", "assert"): s.next(); s.eat("("); e = s.expr(); s.eat(")"); s.eat(";"); return dict(k=k, e=e)
        if k in ("acquire", "release"): s.next(); s.eat("("); m = s.ident(); s.eat(")"); s.eat(";"); return dict(k=k, m=m)
        if k == "if":
            s.next(); arms=[]; s.eat("("); c = s.expr(); s.eat(")"); s.eat("then"); b = s.stmts({"elsif","else","fi"}); arms.append((c,b))
            els=[]
            while s.peek() == "elsif":
                s.next(); s.eat("("); c = s.expr(); s.eat(")"); s.eat("then"); b = s.stmts({"elsif","else","fi"}); arms.append((c,b))
            if s.peek() == "else": s.next(); els = s.stmts({"fi"})
            s.eat("fi")
            if s.peek() == ";": s.next()
            return dict(k="if", arms=arms, els=els)
        if k == "while":
            s.next(); s.eat("("); c = s.expr(); s.eat(")"); s.eat("do"); b = s.stmts({"od"}); s.eat("od")
            if s.peek() == ";": s.next()
            return dict(k="while", c=c, b=b)
        # call or assignment
        if s.peek(1) == "(":
            f = s.ident(); args = s.args(); s.eat(";"); return dict(k="call", f=f, args=args, tg=[])
        tg = s.idlist(); s.eat(":=")
        if s.peek() == "tryacquire":
            s.next(); s.eat("("); m = s.ident(); s.eat(")"); s.eat(";"); return dict(k="try", tg=tg, m=m)
        if re.match(r"[A-Za-z_]", s.peek()) and s.peek(1) == "(":
            f = s.ident(); args = s.args(); s.eat(";"); return dict(k="call", f=f, args=args, tg=tg)
        es = s.exprs(); s.eat(";"); return dict(k="assign", tg=tg, es=es)
    def args(s):
        s.eat("("); a=[]
        if s.peek() != ")": a = s.exprs()
        s.eat(")"); return a
    def exprs(s):
        l=[s.expr()]
        while s.peek() == ",": s.next(); l.append(s.expr())
        return l
    def expr(s):
        a = s.e_or()
        if s.peek() == "=>": s.next(); b = s.expr(); return ("=>", a, b)
        return a
    def binl(s, ops, sub):
        a = sub()
        while s.peek() in ops: o = s.next(); b = sub(); a = (o, a, b)
        return a
    def e_or(s): return s.binl({"|"}, s.e_xor)
    def e_xor(s): return s.binl({"^"}, s.e_and)
    def e_and(s): return s.binl({"&"}, s.e_eq)
    def e_eq(s): return s.binl({"=","!="}, s.e_un)
    def e_un(s):
        if s.peek() in ("!","~"): s.next(); return ("!", s.e_un())
        return s.prim()
    def prim(s):
        v = s.next()
        if v == "(": e = s.expr(); s.eat(")"); return e
        if v in ("T","1"): return ("c", True)
        if v in ("F","0"): return ("c", False)
        if v == "*": return ("*",)
        if re.match(r"[A-Za-z_]", v) and v not in KW: return ("v", v)
        raise SyntaxError("line %d: bad expr token %s" % (s.t[s.i-1][1], v))

KW = {"decl","lock","thread","void","bool","begin","end","if","then","elsif","else","fi","while","do","od","skip","return",
      "goto","assume","assert","acquire","release","tryacquire","atomic_begin","atomic_end","T","F"}

def compile_func(f, prog):
    code=[]; labels={}
    def emit(ins): code.append(ins); return len(code)-1
    def block(stmts):
        for st in stmts:
            start = len(code)
            for L in st["labels"]: labels[L] = start
            k = st["k"]
            if k == "if":
                jends=[]
                for (c, b) in st["arms"]:
                    br = emit(dict(k="br", c=c, t=None, f=None)); code[br]["t"] = len(code)
                    block(b); jends.append(emit(dict(k="jmp", to=None))); code[br]["f"] = len(code)
                block(st["els"])
                for j in jends: code[j]["to"] = len(code)
            elif k == "while":
                br = emit(dict(k="br", c=st["c"], t=None, f=None)); code[br]["t"] = len(code)
                block(st["b"]); emit(dict(k="jmp", to=br)); code[br]["f"] = len(code)
            else:
                emit(dict(st))
    block(f["body"])
    emit(dict(k="return", es=[], labels=[]))
    for ins in code:
        if ins["k"] == "goto": ins["to"] = [labels[L] for L in ins["ls"]]
    f["code"] = code; f["lab"] = labels
    f["errpcs"] = {labels[L] for L in labels if L in ERRLABELS}
    f["lidx"] = {v:i for i,v in enumerate(f["locals"])}

ERRLABELS = {"error","ERROR","SLIC_ERROR"}

def resolve(code, pc):
    seen=0
    while code[pc]["k"] == "jmp":
        pc = code[pc]["to"]; seen += 1
        if seen > 10000: raise Exception("jmp loop")
    return pc

class Model:
    def __init__(s, prog, threads_spec, depth):
        s.p = prog; s.depth = depth
        for f in prog["funcs"].values(): compile_func(f, prog)
        s.gidx = {v:i for i,v in enumerate(prog["globals"])}
        s.lockidx = {v:i for i,v in enumerate(prog["locks"])}
        ths = [n for n in prog["order"] if prog["funcs"][n]["thread"]]
        s.threads=[]
        for n in ths:
            cnt = threads_spec.get(n, 1)
            s.threads += [n]*cnt
        s.n = len(s.threads)
        s.depth_hit = False
    def ev(s, e, g, l, f):
        k = e[0]
        if k == "c": return [e[1]]
        if k == "*": return [False, True]
        if k == "v":
            v = e[1]
            if v in f["lidx"]: return [l[f["lidx"][v]]]
            return [g[s.gidx[v]]]
        if k == "!": return [not x for x in s.ev(e[1], g, l, f)]
        a = s.ev(e[1], g, l, f); b = s.ev(e[2], g, l, f); out=set()
        for x in a:
            for y in b:
                out.add({"&": x and y, "|": x or y, "^": x != y, "=": x == y, "!=": x != y, "=>": (not x) or y}[k])
        return sorted(out)
    def newframes(s, fname, args):
        f = s.p["funcs"][fname]; nl = len(f["locals"]); npar = len(f["params"])
        res=[]
        for vals in itertools.product([False, True], repeat=nl-npar):
            res.append((fname, resolve(f["code"], 0), tuple(args)+vals))
        return res
    def initial(s):
        g0s = list(itertools.product([False,True], repeat=len(s.p["globals"])))
        locks = tuple([-1]*len(s.p["locks"]))
        threads0 = []
        res=[]
        # thread stacks
        stacks_choices = [[ (fr,) for fr in s.newframes(t, []) ] for t in s.threads]
        for g in g0s:
            if "init" in s.p["funcs"]:
                # run init alone to completion (all nondeterminism)
                finals = s.run_alone("init", g, locks)
            else: finals = [(g, locks)]
            for (g2, l2) in finals:
                for sts in itertools.product(*stacks_choices):
                    res.append((g2, l2, tuple(sts), -1))   # -1 = no atomic owner
        return res
    def run_alone(s, fname, g, locks):
        # explore init thread alone
        start = (g, locks, tuple(((fr,) for fr in s.newframes(fname, []))), -1)
        out=set(); seen=set(); todo=[]
        for fr in s.newframes(fname, []): todo.append((g, locks, (fr,)))
        while todo:
            st = todo.pop()
            if st in seen: continue
            seen.add(st)
            g1, l1, stack = st
            if not stack: out.add((g1, l1)); continue
            f = s.p["funcs"][stack[-1][0]]
            if stack[-1][1] in f["errpcs"]: raise Exception("error in init")
            for (ng, nl, nst, at, err, blk) in s.step_stack(g1, l1, stack, 99, -1):
                if err: raise Exception("error in init: %s" % err)
                if blk: continue
                todo.append((ng, nl, nst))
        return sorted(out)
    def step_stack(s, g, locks, stack, tid, atomic):
        """returns list of (g, locks, stack, atomic, err, blocked)"""
        fname, pc, l = stack[-1]; f = s.p["funcs"][fname]; code = f["code"]; ins = code[pc]; k = ins["k"]
        out=[]
        def adv(npc, nl=None):
            return stack[:-1] + ((fname, resolve(code, npc), l if nl is None else nl),)
        def assign(tg, vals, g, l):
            g = list(g); l = list(l)
            for v, x in zip(tg, vals):
                if v in f["lidx"]: l[f["lidx"][v]] = x
                else: g[s.gidx[v]] = x
            return tuple(g), tuple(l)
        if k == "skip": out.append((g, locks, adv(pc+1), atomic, None, False))
        elif k == "atomic_begin": out.append((g, locks, adv(pc+1), tid, None, False))
        elif k == "atomic_end": out.append((g, locks, adv(pc+1), -1, None, False))
        elif k == "assign":
            for vals in itertools.product(*[s.ev(e, g, l, f) for e in ins["es"]]):
                ng, nl = assign(ins["tg"], vals, g, l); out.append((ng, locks, adv(pc+1, nl), atomic, None, False))
        elif k == "br":
            for v in s.ev(ins["c"], g, l, f): out.append((g, locks, adv(ins["t"] if v else ins["f"]), atomic, None, False))
        elif k == "goto":
            for t in ins["to"]: out.append((g, locks, adv(t), atomic, None, False))
        elif k == "assume":
            if True in s.ev(ins["e"], g, l, f): out.append((g, locks, adv(pc+1), atomic, None, False))
        elif k == "assert":
            vs = s.ev(ins["e"], g, l, f)
            if False in vs: out.append((g, locks, stack, atomic, "assert line", False))
            else: out.append((g, locks, adv(pc+1), atomic, None, False))
        elif k == "acquire":
            m = s.lockidx[ins["m"]]
            if locks[m] == -1:
                nlk = list(locks); nlk[m] = tid; out.append((g, tuple(nlk), adv(pc+1), atomic, None, False))
            else: out.append((g, locks, stack, atomic, None, True))
        elif k == "release":
            m = s.lockidx[ins["m"]]
            if locks[m] != tid: out.append((g, locks, stack, atomic, "release of lock not held", False))
            else:
                nlk = list(locks); nlk[m] = -1; out.append((g, tuple(nlk), adv(pc+1), atomic, None, False))
        elif k == "try":
            m = s.lockidx[ins["m"]]
            if locks[m] == -1:
                nlk = list(locks); nlk[m] = tid; ng, nl = assign(ins["tg"], [True], g, l)
                out.append((ng, tuple(nlk), adv(pc+1, nl), atomic, None, False))
            else:
                ng, nl = assign(ins["tg"], [False], g, l); out.append((ng, locks, adv(pc+1, nl), atomic, None, False))
        elif k == "call":
            argvals = itertools.product(*[s.ev(e, g, l, f) for e in ins["args"]])
            for av in argvals:
                if len(stack) + 1 > s.depth: s.depth_hit = True; continue
                for fr in s.newframes(ins["f"], list(av)):
                    out.append((g, locks, stack + (fr,), atomic, None, False))
        elif k == "return":
            vals_list = list(itertools.product(*[s.ev(e, g, l, f) for e in ins["es"]])) if ins["es"] else None
            if len(stack) == 1:
                out.append((g, locks, (), atomic, None, False))
            else:
                cf, cpc, cl = stack[-2]; cfun = s.p["funcs"][cf]; cins = cfun["code"][cpc]
                tg = cins["tg"]
                if vals_list is None: vals_list = list(itertools.product([False,True], repeat=len(tg))) if tg else [()]
                for vals in vals_list:
                    g2 = list(g); l2 = list(cl)
                    for v, x in zip(tg, vals):
                        if v in cfun["lidx"]: l2[cfun["lidx"][v]] = x
                        else: g2[s.gidx[v]] = x
                    out.append((tuple(g2), locks, stack[:-2] + ((cf, resolve(cfun["code"], cpc+1), tuple(l2)),), atomic, None, False))
        else: raise Exception("unknown ins " + k)
        return out
    def at_error(s, stack):
        if not stack: return False
        fname, pc, _ = stack[-1]
        return pc in s.p["funcs"][fname]["errpcs"]
    def enabled(s, g, locks, stacks, t):
        st = stacks[t]
        if not st: return False
        fname, pc, l = st[-1]; ins = s.p["funcs"][fname]["code"][pc]
        if ins["k"] == "acquire" and locks[s.lockidx[ins["m"]]] != -1: return False
        return True
    def tsteps(s, state, t):
        g, locks, stacks, atomic = state
        if not stacks[t]: return []
        res=[]
        for (ng, nl, nst, nat, err, blk) in s.step_stack(g, locks, stacks[t], t, atomic):
            if blk: continue
            nstacks = stacks[:t] + (nst,) + stacks[t+1:]
            res.append(((ng, nl, nstacks, nat), err))
        return res

def check_switches(m, N):
    """0-1 BFS on (state, cur) minimising switches. returns min switches to violation or None (and count)"""
    init = m.initial(); dist={}; dq = deque()
    best = None
    for st in init:
        if any(m.at_error(x) for x in st[2]): return 0, "error label at start"
        for t in range(m.n):
            key = (st, t)
            if key not in dist: dist[key] = 0; dq.append(key)
    while dq:
        key = dq.popleft(); st, t = key; d = dist[key]
        if d > N: continue
        # step
        for (nst, err) in m.tsteps(st, t):
            if err: return d, err
            if m.at_error(nst[2][t]): return d, "error label"
            nk = (nst, t)
            if nk not in dist or dist[nk] > d: dist[nk] = d; dq.appendleft(nk)
        # switch
        if st[3] == -1 and d + 1 <= N:
            for u in range(m.n):
                if u != t:
                    nk = (st, u)
                    if nk not in dist or dist[nk] > d+1: dist[nk] = d+1; dq.append(nk)
    return None, len(dist)

def check_rounds(m, K):
    init = m.initial(); seen=set(); todo=[]
    for st in init:
        if any(m.at_error(x) for x in st[2]): return (0,0), "error label at start"
        todo.append((st, 0, 0))
    while todo:
        key = todo.pop()
        if key in seen: continue
        seen.add(key); st, r, i = key
        for (nst, err) in m.tsteps(st, i):
            if err: return (r, i), err
            if m.at_error(nst[2][i]): return (r, i), "error label"
            todo.append((nst, r, i))
        if st[3] == -1:
            if i + 1 < m.n: todo.append((st, r, i+1))
            elif r + 1 < K: todo.append((st, r+1, 0))
    return None, len(seen)

def lasso(m, k1, k2, fairness="strong"):
    """search ultimately periodic round-robin executions: stem <= k1 rounds, lasso <= k2 rounds, strongly fair."""
    # round-boundary states reachable within <= k1 rounds
    init = m.initial()
    def one_round(st):
        # all (end_state, ran_set, enabled_set) after one round from st (at thread 0)
        out=set(); seen=set(); todo=[(st, 0, frozenset(), frozenset())]
        while todo:
            key = todo.pop()
            if key in seen: continue
            seen.add(key); s_, i, ran, en = key
            en2 = en | {u for u in range(m.n) if m.enabled(s_[0], s_[1], s_[2], u)}
            for (nst, err) in m.tsteps(s_, i):
                if err or m.at_error(nst[2][i]): continue
                todo.append((nst, i, ran | {i}, en2))
            if s_[3] == -1:
                if i + 1 < m.n: todo.append((s_, i+1, ran, en2))
                else: out.add((s_, ran, en2))
        return out
    cache={}
    def rnd(st):
        if st not in cache: cache[st] = one_round(st)
        return cache[st]
    frontier = set(init); allstem = set(init)
    for r in range(k1):
        nf=set()
        for st in frontier:
            for (ns, ran, en) in rnd(st): nf.add(ns)
        frontier = nf - allstem; allstem |= nf
    for s0 in allstem:
        # search paths of 1..k2 rounds back to s0
        layer = {(s0, frozenset(), frozenset())}
        for j in range(k2):
            nl=set()
            for (st, ran, en) in layer:
                for (ns, r2, e2) in rnd(st):
                    R = ran | r2; E = en | e2
                    if ns == s0 and R:
                        if fairness == "none" or E <= R:
                            return ("livelock", s0, j+1)
                    nl.add((ns, R, E))
            layer = nl
    return ("no-livelock", len(allstem))

def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("file"); ap.add_argument("-k", type=int); ap.add_argument("--switches", type=int)
    ap.add_argument("--threads", default=""); ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--lasso"); ap.add_argument("--fairness", default="strong")
    a = ap.parse_args()
    prog = P(open(a.file).read()).program()
    spec = {}
    if a.threads:
        for kv in a.threads.split(","):
            n, v = kv.split("="); spec[n] = int(v)
    m = Model(prog, spec, a.depth)
    if a.lasso:
        k1, k2 = map(int, a.lasso.split(","))
        print(lasso(m, k1, k2, a.fairness))
    elif a.switches is not None:
        print("switches", check_switches(m, a.switches), "depth_hit" if m.depth_hit else "")
    else:
        print("rounds", check_rounds(m, a.k), "depth_hit" if m.depth_hit else "")
main()
