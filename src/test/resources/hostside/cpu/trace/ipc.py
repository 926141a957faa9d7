# A parent and two forked children: a pipe, a socketpair, a child killed by SIGKILL.
import os, signal, socket, time
r, w = os.pipe()
a, b = socket.socketpair()
pid = os.fork()
if pid == 0:
    os.close(r)
    os.write(w, b"x" * 100)
    b.send(b"batch")
    os._exit(0)
os.close(w)
data = os.read(r, 4096)
got = a.recv(64)
os.waitpid(pid, 0)
p2 = os.fork()
if p2 == 0:
    time.sleep(10)
    os._exit(0)
time.sleep(0.05)
os.kill(p2, signal.SIGKILL)
os.waitpid(p2, 0)
