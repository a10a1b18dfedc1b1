// The part of inversify the composition root uses, bound with the programmatic API only.
export { Container, ContainerModule } from 'inversify'
