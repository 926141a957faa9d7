// Issue 17 lab (not part of hostside): refs' futex ping-pong as a library for CPU.java, with CPU time;
// built with -DMAIN a standalone copy (./cpp CPU_A CPU_B 20000 9); with -DFAR the ping-pong that reads
// one byte of N pages after every wait, adjacent or 1 GiB apart (./far): what a page costs after a
// kernel entry on a VM whose kernel runs with page-table isolation and no PCID (every entry flushes the TLB).
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
/* ping-pong as refs, reporting wall and CPU time (both threads' CLOCK_THREAD_CPUTIME_ID) per hand-over */
static long long ns(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
static int word __attribute__((aligned(64)));
static int rounds_, cpu_a_, cpu_b_; static long long cpu_b_ns;
static void pin(int cpu){cpu_set_t s;CPU_ZERO(&s);CPU_SET(cpu,&s);sched_setaffinity(0,sizeof s,&s);}
static void fwait(int*w,int val){int v;while((v=__atomic_load_n(w,__ATOMIC_SEQ_CST))!=val)syscall(SYS_futex,w,FUTEX_WAIT_PRIVATE,v,NULL,NULL,0);}
static void hand(int*w,int mine,int theirs){fwait(w,mine);__atomic_store_n(w,theirs,__ATOMIC_SEQ_CST);syscall(SYS_futex,w,FUTEX_WAKE_PRIVATE,1,NULL,NULL,0);}
static void*side_b(void*a){(void)a;pin(cpu_b_);long long c0=ns(CLOCK_THREAD_CPUTIME_ID);for(int r=0;r<rounds_;r++)hand(&word,1,0);cpu_b_ns=ns(CLOCK_THREAD_CPUTIME_ID)-c0;return NULL;}
void c_pingpong_cpu(int a,int b,int rounds,double *wall,double *cpu){
    pthread_t tb; word=0; rounds_=rounds; cpu_a_=a; cpu_b_=b;
    pthread_create(&tb,NULL,side_b,NULL);
    pin(a);
    long long c0=ns(CLOCK_THREAD_CPUTIME_ID), t0=ns(CLOCK_MONOTONIC);
    for(int r=0;r<rounds;r++)hand(&word,0,1);
    fwait(&word,0);
    long long t1=ns(CLOCK_MONOTONIC), c1=ns(CLOCK_THREAD_CPUTIME_ID);
    pthread_join(tb,NULL);
    *wall=(t1-t0)/(2.0*rounds); *cpu=(c1-c0+cpu_b_ns)/(2.0*rounds);
}
double c_getppid_cpu(long n){ volatile long s=0; long long c0=ns(CLOCK_THREAD_CPUTIME_ID); for(long k=0;k<n;k++) s+=syscall(SYS_getppid); return (ns(CLOCK_THREAD_CPUTIME_ID)-c0)/(double)n; }
#ifdef MAIN
static int cmp(const void*x,const void*y){double a=*(double*)x,b=*(double*)y;return a<b?-1:a>b;}
int main(int argc,char**argv){int a=atoi(argv[1]),b=atoi(argv[2]),n=atoi(argv[3]),rs=atoi(argv[4]);double w[64],c[64],s[64];
 for(int i=-1;i<rs;i++){double x,y;c_pingpong_cpu(a,b,n,&x,&y);double z=c_getppid_cpu(200000);if(i>=0){w[i]=x;c[i]=y;s[i]=z;}}
 qsort(w,rs,8,cmp);qsort(c,rs,8,cmp);qsort(s,rs,8,cmp);printf("c-standalone   wall %8.1f cpu %8.1f (min %8.1f)  getppid cpu %7.1f (min %7.1f)\n",w[rs/2],c[rs/2],c[0],s[rs/2],s[0]);}
#endif
/* one hand-over in C (wait for mine, store theirs, wake): a Java loop calls it */
void c_hand(int *w,int mine,int theirs){hand(w,mine,theirs);}
void c_wait(int *w,int val){fwait(w,val);}
/* a whole side in C, on the calling (Java) thread: its CPU time, ns */
long long c_side(int *w,int mine,int theirs,int rounds,int final_wait){long long c0=ns(CLOCK_THREAD_CPUTIME_ID);for(int r=0;r<rounds;r++)hand(w,mine,theirs);if(final_wait)fwait(w,mine);return ns(CLOCK_THREAD_CPUTIME_ID)-c0;}
#include <sys/mman.h>
static volatile char *far_[64]; static int nfar_;
static void touch_far(void){for(int i=0;i<nfar_;i++)(void)far_[i][0];}
static void hand_far(int*w,int mine,int theirs){fwait(w,mine);touch_far();__atomic_store_n(w,theirs,__ATOMIC_SEQ_CST);syscall(SYS_futex,w,FUTEX_WAKE_PRIVATE,1,NULL,NULL,0);}
static long long cpu_bf;
static void*side_bf(void*a){(void)a;pin(cpu_b_);long long c0=ns(CLOCK_THREAD_CPUTIME_ID);for(int r=0;r<rounds_;r++)hand_far(&word,1,0);cpu_bf=ns(CLOCK_THREAD_CPUTIME_ID)-c0;return NULL;}
/* the ping-pong reading one byte of each of nfar pages after every wait, pages 1 GiB apart (each its own page-table pages): CPU ns per hand-over */
double c_pingpong_far(int a,int b,int rounds,int nfar,int spread){
    static int made; if(!made){for(int i=0;i<64;i++){char *p=mmap((void*)(0x100000000000UL+(unsigned long)i*(1UL<<30)),4096,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE,-1,0); if(p==MAP_FAILED){perror("mmap");exit(1);} p[0]=1; far_[i]=p;} made=1;}
    static char *near; if(!near){near=aligned_alloc(4096,4096*64); for(int i=0;i<64;i++) near[i*4096]=1;}
    volatile char *keep[64]; for(int i=0;i<64;i++) keep[i]=far_[i];
    if(!spread) for(int i=0;i<64;i++) far_[i]=near+i*4096;
    nfar_=nfar; pthread_t tb; word=0; rounds_=rounds; cpu_b_=b;
    pthread_create(&tb,NULL,side_bf,NULL); pin(a);
    long long c0=ns(CLOCK_THREAD_CPUTIME_ID);
    for(int r=0;r<rounds;r++)hand_far(&word,0,1);
    fwait(&word,0);
    long long c1=ns(CLOCK_THREAD_CPUTIME_ID);
    pthread_join(tb,NULL);
    for(int i=0;i<64;i++) far_[i]=keep[i];
    return (c1-c0+cpu_bf)/(2.0*rounds);
}
#ifdef FAR
static int cmpd(const void*x,const void*y){double a=*(double*)x,b=*(double*)y;return a<b?-1:a>b;}
int main(int argc,char**argv){int rs=9; int ks[]={0,4,8,16,32}; double v[5][2][32];
 for(int i=-1;i<rs;i++) for(int k=0;k<5;k++) for(int s=0;s<2;s++){double x=c_pingpong_far(0,0,20000,ks[k],s); if(i>=0) v[k][s][i]=x;}
 for(int k=0;k<5;k++) for(int s=0;s<2;s++){qsort(v[k][s],rs,8,cmpd); printf("%2d pages %s: cpu/hand-over median %7.1f min %7.1f\n",ks[k],s?"1 GiB apart":"adjacent   ",v[k][s][rs/2],v[k][s][0]);}}
#endif
