"""Mechanical migration of dev.spindle.sync tests onto the shared fixture (re-runnable on new tests)."""
import re,glob,sys
def addimport(s,imp):
    if imp in s: return s
    lines=s.split('\n')
    idx=[i for i,l in enumerate(lines) if l.startswith('import ') and not l.startswith('import static')]
    if not idx:
        k=next(i for i,l in enumerate(lines) if l.startswith('package ')); lines[k+1:k+1]=['',imp]; return '\n'.join(lines)
    pos=next((i for i in idx if lines[i]>imp), idx[-1]+1)
    lines.insert(pos,imp); return '\n'.join(lines)
for f in glob.glob('*.java'):
    if f in ('Harness.java','Actors.java'): continue
    s=open(f).read(); o=s
    s=s.replace('@EnumSource(value = Mode.class, names = "THREADS", mode = EnumSource.Mode.EXCLUDE)','@MethodSource("dev.spindle.sync.Actors#fiberKinds")')
    s=s.replace('@EnumSource(Mode.class)','@MethodSource("dev.spindle.sync.Actors#all")')
    s=re.sub(r'\(Mode mode\)','(Actors mode)',s)
    s=re.sub(r'\bMode\.(SINGLE_THREADED|WORKERS_\d)\b',r'Actors.on(SchedulerKind.\1)',s)
    s=s.replace('Mode.DIRECT_2','Actors.on(SchedulerKind.DIRECT)').replace('Mode.THREADS','Actors.THREADS')
    s=s.replace('Harness.LONG','Patience.LONG').replace('Polling.until(','Patience.until(')
    s=re.sub(r'ModelCheck\.against\((\w+)\.class, (\w+)\.class\)',r'LincheckOptions.check(\2.class, \1.class)',s)
    s=s.replace('StressScale.of(500)','LincheckOptions.INVOCATIONS') if 'Lincheck' in f else s
    if s==o: continue
    if '@MethodSource' in s: s=addimport(s,'import org.junit.jupiter.params.provider.MethodSource;')
    if 'EnumSource' not in s.replace('import org.junit.jupiter.params.provider.EnumSource;',''):
        s=s.replace('import org.junit.jupiter.params.provider.EnumSource;\n','')
    if 'SchedulerKind.' in s: s=addimport(s,'import dev.spindle.test.fixture.SchedulerKind;')
    if 'Patience.' in s: s=addimport(s,'import dev.spindle.test.fixture.Patience;')
    if 'LincheckOptions.' in s: s=addimport(s,'import dev.spindle.LincheckOptions;')
    if 'StressScale' not in s.replace('import dev.spindle.StressScale;',''):
        s=s.replace('import dev.spindle.StressScale;\n','')
    open(f,'w').write(s); print('migrated',f)
# (also: '{@link Mode}' -> '{@link Actors} kind' in comments)
