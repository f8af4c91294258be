// The gate runs this first and must see it FAIL: proof that a failing check is detected
// (decision record 0005). It is never part of a normal suite.
test('the gate can see a failure', () => {
  expect(1 + 1).toBe(3);
});
