// A real X server for the SDL window's tests: Debian's Xvfb started on a
// free display (it picks one with -displayfd), plus the X tools the tests
// drive it with: xdotool (keys), ImageMagick import/convert (screenshots).
//
// guiPrerequisites() says what is missing: the SDL frontend not built
// (MH_FRONTEND_SDL=OFF from CTest: libsdl2-dev was missing at configure
// time) or a program not installed. In CI (CI=true) a missing piece fails
// the tests; elsewhere they are skipped with that reason.
import { spawn, execFileSync } from 'node:child_process';

export function which(program) {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Why the GUI tests cannot run here, or '' when they can. */
export function guiPrerequisites() {
  if (process.env.MH_FRONTEND_SDL !== 'ON')
    return 'the SDL frontend was not built: install libsdl2-dev (Debian) and configure again';
  const missing = ['Xvfb', 'xdotool', 'import', 'convert'].filter((p) => !which(p));
  if (missing.length)
    return `missing ${missing.join(', ')}: install xvfb xdotool imagemagick (.ci/install-deps)`;
  return '';
}

/** Starts Xvfb; resolves { display, stop() }. */
export function startXvfb({ width = 1600, height = 900 } = {}) {
  return new Promise((resolve, reject) => {
    const x = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe']
    });
    let err = '';
    let out = '';
    x.stderr.on('data', (c) => (err += c));
    x.on('error', reject);
    x.on('exit', (code) => reject(new Error(`Xvfb exited (${code}): ${err}`)));
    x.stdio[3].on('data', (c) => {
      out += c;
      const m = out.match(/^(\d+)\n/);
      if (m) {
        x.removeAllListeners('exit');
        resolve({
          display: `:${m[1]}`,
          stop: () =>
            new Promise((done) => {
              if (x.exitCode !== null) return done();
              x.on('exit', () => done());
              x.kill('SIGTERM');
            })
        });
      }
    });
  });
}

/** Runs an X program on the display; resolves its stdout (a Buffer). */
export function xrun(display, program, args) {
  return new Promise((resolve, reject) => {
    const p = spawn(program, args, { env: { ...process.env, DISPLAY: display }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    p.stdout.on('data', (c) => out.push(c));
    p.stderr.on('data', (c) => (err += c));
    p.on('error', reject);
    p.on('exit', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${program} ${args.join(' ')}: exit ${code}: ${err}`))
    );
  });
}

/** A PNG (file or Buffer) as raw 8-bit RGB via ImageMagick, optionally cropped. */
export async function pngToRgb(png, crop) {
  const args = ['png:-'];
  if (crop) args.push('-crop', `${crop.width}x${crop.height}+${crop.x}+${crop.y}`, '+repage');
  args.push('-depth', '8', 'rgb:-');
  return new Promise((resolve, reject) => {
    const p = spawn('convert', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    p.stdout.on('data', (c) => out.push(c));
    p.stderr.on('data', (c) => (err += c));
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`convert: ${err}`))));
    p.stdin.end(png);
  });
}
