import threading, queue, time, os
q = queue.Queue()
def worker():
    for i in range(20):
        q.put(i); time.sleep(0.001)
t = [threading.Thread(target=worker) for _ in range(3)]
[x.start() for x in t]
n=0
while n < 60:
    q.get(); n+=1
[x.join() for x in t]
with open('/etc/services','rb') as f: f.read()
print("done \"quoted\"\n\ttab")
