// Issue 17 lab (not part of hostside): refs' loops as a library, for Lab.java and the earlier ping-pong probes.
#define _GNU_SOURCE
#include <unistd.h>
#include <sys/syscall.h>
#include <time.h>
static inline long long now_ns(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
/* the C reference's loop, run inside whatever process loads this */
double c_getppid_loop(long calls){
    volatile long sink=0;
    long long t0=now_ns();
    for(long k=0;k<calls;k++) sink+=syscall(SYS_getppid);
    long long t1=now_ns();
    return (t1-t0)/(double)calls;
}
long raw_getppid(void){ return syscall(SYS_getppid); }
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
static int word __attribute__((aligned(64)));
static int rounds_, cpu_b_;
static void pin(int cpu){cpu_set_t s;CPU_ZERO(&s);CPU_SET(cpu,&s);sched_setaffinity(0,sizeof s,&s);}
static void fwait(int*w,int val){int v;while((v=__atomic_load_n(w,__ATOMIC_SEQ_CST))!=val)syscall(SYS_futex,w,FUTEX_WAIT_PRIVATE,v,NULL,NULL,0);}
static void hand(int*w,int mine,int theirs){fwait(w,mine);__atomic_store_n(w,theirs,__ATOMIC_SEQ_CST);syscall(SYS_futex,w,FUTEX_WAKE_PRIVATE,1,NULL,NULL,0);}
static void*side_b(void*a){(void)a;pin(cpu_b_);for(int r=0;r<rounds_;r++)hand(&word,1,0);return NULL;}
/* refs' ping-pong, with the calling (Java) thread as side A */
double c_pingpong(int cpu_a,int cpu_b,int rounds){
    pthread_t tb; word=0; rounds_=rounds; cpu_b_=cpu_b;
    pthread_create(&tb,NULL,side_b,NULL);
    pin(cpu_a);
    long long t0=now_ns();
    for(int r=0;r<rounds;r++)hand(&word,0,1);
    fwait(&word,0);
    long long t1=now_ns();
    pthread_join(tb,NULL);
    return (t1-t0)/(2.0*rounds);
}
static volatile char *pages_; static int npages_;
static void touch(void){for(int i=0;i<npages_;i++)(void)pages_[i*4096];}
static void hand_t(int*w,int mine,int theirs){fwait(w,mine);touch();__atomic_store_n(w,theirs,__ATOMIC_SEQ_CST);syscall(SYS_futex,w,FUTEX_WAKE_PRIVATE,1,NULL,NULL,0);}
static void*side_bt(void*a){(void)a;pin(cpu_b_);for(int r=0;r<rounds_;r++)hand_t(&word,1,0);return NULL;}
#include <stdlib.h>
/* the same ping-pong, reading one byte of each of npages pages after every wait: the cost of user pages after a kernel entry */
double c_pingpong_pages(int cpu_a,int cpu_b,int rounds,int npages){
    static char *buf; if(!buf){buf=aligned_alloc(4096,4096*64);for(int i=0;i<64*4096;i++)buf[i]=1;}
    pages_=buf; npages_=npages;
    pthread_t tb; word=0; rounds_=rounds; cpu_b_=cpu_b;
    pthread_create(&tb,NULL,side_bt,NULL);
    pin(cpu_a);
    long long t0=now_ns();
    for(int r=0;r<rounds;r++)hand_t(&word,0,1);
    fwait(&word,0);
    long long t1=now_ns();
    pthread_join(tb,NULL);
    return (t1-t0)/(2.0*rounds);
}
static pthread_t tb_only;
/* starts refs' side B on cpu_b for rounds hand-overs on the word at w; c_join_b waits for it */
static int *wb_;
static void*side_b_ext(void*a){(void)a;pin(cpu_b_);for(int r=0;r<rounds_;r++)hand(wb_,1,0);return NULL;}
void c_start_b(int *w,int cpu_b,int rounds){wb_=w;cpu_b_=cpu_b;rounds_=rounds;pthread_create(&tb_only,NULL,side_b_ext,NULL);}
void c_join_b(void){pthread_join(tb_only,NULL);}
/* futex wake with no waiter, then a wait whose value does not match (returns EAGAIN at once): two syscalls, no switch */
double c_futex_noswitch(int *w,long n){
    long long t0=now_ns();
    for(long k=0;k<n;k++){syscall(SYS_futex,w,FUTEX_WAKE_PRIVATE,1,NULL,NULL,0);syscall(SYS_futex,w,FUTEX_WAIT_PRIVATE,1,NULL,NULL,0);}
    return (now_ns()-t0)/(double)n;
}
