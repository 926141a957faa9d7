#!/usr/bin/env python3
"""ab.py ROUNDS 'name=JAVA_OPTS' ... -- hostside args: variants interleaved, random order each round.
A variant 'name=ARGS:--opt value' appends arguments instead of JVM options; $HS names the launcher
(default /work/main/hostside, the repository's). Prints per figure key: each variant's values across
rounds (and each jitter recording's JIT ms and warm-up ms); per case: seconds."""
import json, os, random, re, subprocess, sys, statistics, time
args = sys.argv[1:]
rounds = int(args.pop(0)); sep = args.index('--')
variants = [v.split('=', 1) for v in args[:sep]]; cmd = args[sep + 1:]
env0 = dict(os.environ, JAVA_HOME='/usr/lib/jvm/temurin-25-jdk-amd64')
fig = {}; secs = {}; walls = {}
for r in range(rounds):
    order = variants[:]; random.shuffle(order)
    for name, opts in order:
        extra = opts[5:].split() if opts.startswith('ARGS:') else []
        env = dict(env0, HOSTSIDE_JAVA_OPTS='' if extra else opts)
        t0 = time.time()
        p = subprocess.run([os.environ.get('HS', '/work/main/hostside')] + cmd + extra + ['--json'], env=env, capture_output=True, text=True)
        walls.setdefault(name, []).append(time.time() - t0)
        try: d = json.loads(p.stdout)
        except Exception: print(name, 'bad json', p.stderr[-500:]); continue
        def walk(x):
            if isinstance(x, dict):
                dd = x.get('detail')
                if 'key' in x and isinstance(dd, dict) and 'jitInRecordingMs' in dd:
                    fig.setdefault(x['key'] + ' jitMs/warmupMs', {}).setdefault(name, []).append((dd.get('jitInRecordingMs'), dd.get('warmupMs'), dd.get('warmupMs')))
                for y in x.values(): walk(y)
            elif isinstance(x, list):
                for y in x: walk(y)
        walk(d)
        for f in d.get('figures', []):
            k = f['key'] + ('' if f.get('scope') in (None, 'machine') else ' ' + str(f.get('scope')))
            fig.setdefault(k, {}).setdefault(name, []).append((f['value'], f.get('min'), f.get('max')))
        for m in re.finditer(r'\d+/\d+ (\S+)[^\n]*?: ok in ([\d.]+) s', p.stderr):
            secs.setdefault(m.group(1), {}).setdefault(name, []).append(float(m.group(2)))
    print(f'round {r+1} done', file=sys.stderr, flush=True)
names = [n for n, _ in variants]
def fmt(v): return f'{v:.4g}' if v is not None else '-'
print('wall', {n: [round(x, 1) for x in walls.get(n, [])] for n in names})
for k in sorted(secs):
    print('secs', k, ' | '.join(f"{n}: {[x for x in secs[k].get(n, [])]}" for n in names))
for k in sorted(fig):
    row = []
    for n in names:
        vs = fig[k].get(n, [])
        row.append(f"{n}: " + ' '.join(f"{fmt(v)}({fmt(a)}-{fmt(b)})" for v, a, b in vs))
    print('fig', k, ' | '.join(row))
