/** Floor of the cold-start benchmark: a function that imports nothing. */
export const handler = async () => ({ statusCode: 204 });
