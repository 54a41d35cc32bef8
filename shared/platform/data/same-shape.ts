/**
 * Compile-time proof that two types are the same, optional fields, `null` and literal unions
 * included (mutual assignability would let an optional field go missing on either side). The domain
 * uses it to hold a schema's inferred type to the stored shape declared here.
 */
export type SameShape<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
