import { HealthBeat } from './health-beat';

describe('HealthBeat', () => {
  let reports: number;
  let beat: HealthBeat;

  beforeEach(() => {
    jest.useFakeTimers();
    reports = 0;
    beat = new HealthBeat(() => reports++, 1000, 1000);
  });

  afterEach(() => {
    beat.stop();
    jest.useRealTimers();
  });

  it('reports once per poll while polls keep their interval, with no timer of its own firing', () => {
    beat.start();
    for (let poll = 0; poll < 10; poll++) {
      jest.advanceTimersByTime(poll === 0 ? 300 : 1050);
      beat.polled();
    }
    expect(reports).toBe(10);
    expect(jest.getTimerCount()).toBe(1);
  });

  it('reports every beat before the first poll ends and while a poll is late', () => {
    beat.start();
    jest.advanceTimersByTime(3000);
    expect(reports).toBe(3);
    beat.polled();
    expect(reports).toBe(4);
    jest.advanceTimersByTime(1999);
    expect(reports).toBe(4);
    jest.advanceTimersByTime(1);
    expect(reports).toBe(5);
    jest.advanceTimersByTime(3000);
    expect(reports).toBe(8);
  });

  it('reports nothing once stopped', () => {
    beat.start();
    beat.stop();
    beat.polled();
    jest.advanceTimersByTime(5000);
    expect(reports).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });
});
