import re,statistics,sys
rounds=[]
for i in (1,2,3):
    rows={}
    for line in open(f'report-peers-{i}.txt'):
        if not line.startswith('| ') or line.startswith('| figure') or line.startswith('|---'): continue
        c=[x.strip() for x in line.strip().strip('|').split('|')]
        if len(c)<8: continue
        fig,unit,hs,peer,pname,ratio=c[0],c[1],c[2],c[3],c[4],c[5]
        num=lambda s: float(s.split(' ')[0].replace(',','')) if s and s[0].isdigit() else None
        rows[fig]=(unit,num(hs),num(peer),pname,c[-1])
    rounds.append(rows)
figs=list(rounds[0])
copies=lambda f,p: ('_ce_pinned' in f or '_ce_pageable' in f or 'memcpy_ce' in f) 
out=[]
for f in figs:
    vals=[r.get(f) for r in rounds]
    if any(v is None for v in vals): continue
    unit=vals[0][0]; hs=[v[1] for v in vals]; pe=[v[2] for v in vals]; pname=vals[0][3]
    if None in hs: continue
    if None in pe:
        out.append((f,unit,hs,None,pname,None,'no peer')); continue
    mh,mp=statistics.median(hs),statistics.median(pe)
    ratio=mh/mp if mp else float('nan')
    tol=0.01 if copies(f,pname) else 0.10
    spread_h=(min(hs),max(hs)); spread_p=(min(pe),max(pe))
    overlap= spread_h[0]<=spread_p[1] and spread_p[0]<=spread_h[1]
    v='within %d%%'%(tol*100) if abs(ratio-1)<=tol else ('beyond %d%%'%(tol*100)+(', ranges overlap' if overlap else ', ranges apart'))
    out.append((f,unit,hs,pe,pname,ratio,v))
fmt=lambda x: ('%.4g'%x) if x is not None else '-'
print('| figure | unit | hostside median (min-max), 3 rounds | peer median (min-max) | peer | ratio | verdict |')
print('|---|---|---|---|---|---|---|')
for f,unit,hs,pe,pname,ratio,v in out:
    h='%s (%s-%s)'%(fmt(statistics.median(hs)),fmt(min(hs)),fmt(max(hs)))
    p='%s (%s-%s)'%(fmt(statistics.median(pe)),fmt(min(pe)),fmt(max(pe))) if pe else '-'
    print('| %s | %s | %s | %s | %s | %s | %s |'%(f,unit,h,p,pname[:90],('%.2f'%ratio) if ratio else '-',v))
