import { describe, expect, it } from 'vitest';
import { profitPreview } from './profit.ts';

describe('the sale form’s profit preview', () => {
  it('is (sale rate - average purchase rate) x quantity in an INR city', () => {
    expect(profitPreview('150', '10', '120.5000', '1.0000')).toBe('295.00');
    expect(profitPreview('100', '3', '120.5000', '1')).toBe('-61.50'); // a loss shows too
  });

  it('takes the sale rate to INR at the city rate first (the average is INR per unit)', () => {
    // 10 AED at 22.5 = 225 INR a unit; 225 - 200 = 25 x 4 units.
    expect(profitPreview('10', '4', '200.0000', '22.5000')).toBe('100.00');
  });

  it('is not shown unless rate, quantity and average are all above 0', () => {
    expect(profitPreview('', '4', '200', '1')).toBeNull();
    expect(profitPreview('10', '0', '200', '1')).toBeNull();
    expect(profitPreview('10', '4', '0.0000', '1')).toBeNull();
  });
});
